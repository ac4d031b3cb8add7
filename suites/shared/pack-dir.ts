import { mkdir, mkdtemp, readdir, rename, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { execa } from 'execa';
import type { TestProject } from 'vitest/node';

// The value's type is declared where it is read (test/support/dba-repo.ts).

/** While this file exists in the folder, a pack is under way there (test/support/dba-repo.ts waits for it). */
export const PACKING = 'packing';

const packageDir = fileURLToPath(new URL('../..', import.meta.url));

/** One folder for the whole run: both of auditbench's projects run this setup, in the one Vitest process. */
interface Shared {
  dir: Promise<string>;
  packing: Promise<void> | null;
}
const key = Symbol.for('auditbench.packDir');
const shared = (): Shared => {
  const holder = globalThis as { [key]?: Shared };
  holder[key] ??= { dir: mkdtemp(path.join(tmpdir(), 'auditbench-tarball-')), packing: null };
  return holder[key];
};

/**
 * Vitest global setup: one folder per run for the packed tarball, so the suites that install auditbench in a DBA's
 * repository pack it once between them rather than once per file, and the tarball goes when the run ends. In the
 * project of the suites that measure nothing (`suites-parallel`, which runs only under `test`), the pack starts at
 * once in the background: its build (about a minute of tsc) overlaps the unit tests and those suites, never a
 * measurement, since the measuring suites start after that project's last file, and one that needs the tarball
 * waits for the pack to end.
 */
export default async function packDir(project: TestProject): Promise<() => Promise<void>> {
  const run = shared();
  const dir = await run.dir;
  project.provide('auditbenchPackDir', dir);
  if (project.name.endsWith('-parallel') && run.packing === null) run.packing = packInBackground(dir);
  return async () => {
    await run.packing?.catch(() => {});
    await rm(dir, { recursive: true, force: true });
  };
}

/** `npm pack` into a staging folder, then the tarball renamed into the run's folder, the marker removed last. */
async function packInBackground(dir: string): Promise<void> {
  await writeFile(path.join(dir, PACKING), `${process.pid}\n`);
  const staging = path.join(dir, 'staging');
  try {
    await mkdir(staging);
    await execa('npm', ['pack', '--silent', '--pack-destination', staging], {
      cwd: packageDir,
      timeout: 300_000,
    });
    for (const name of await readdir(staging))
      if (name.endsWith('.tgz')) await rename(path.join(staging, name), path.join(dir, name));
  } catch (error) {
    // The suite that needs the tarball packs again and fails there, with npm's own message.
    process.stderr.write(`auditbench: the background npm pack failed: ${String(error).split('\n')[0]}\n`);
  } finally {
    await rm(staging, { recursive: true, force: true });
    await rm(path.join(dir, PACKING), { force: true });
  }
}
