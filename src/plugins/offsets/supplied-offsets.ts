import { createHash } from 'node:crypto';
import { mkdir, readFile, rename, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { ConfigEdit, StartedServer } from '../../servers/started-server.ts';
import type { Step } from '../steps.ts';
import { deriveOffsets } from './derive-offsets.ts';
import type { OffsetLayout } from './layout.ts';
import { printableStrings } from './library-strings.ts';
import { describeOffsets, offsetsValue } from './reconcile.ts';

/** Outside any folder a user supplies (never written into): root's is readable by the server's own OS user. */
const cacheRoot = (): string =>
  process.getuid?.() === 0 ? '/var/cache/auditbench' : path.join(os.homedir(), '.cache', 'auditbench');

interface CachedOffsets {
  value: string;
  lines: string[];
  mariadbd: string;
  headers: string;
}

const say = (line: string) => process.stderr.write(`auditbench offsets: ${line}\n`);

const sha256Of = async (file: string) =>
  createHash('sha256')
    .update(await readFile(file))
    .digest('hex');

async function readCache(file: string): Promise<CachedOffsets | null> {
  return readFile(file, 'utf8').then(
    (text) => JSON.parse(text) as CachedOffsets,
    () => null,
  );
}

/** The library the server would load: its plugin directory's copy (the user's, linked into a private dir). */
async function libraryStrings(server: StartedServer, soname: string): Promise<string[] | null> {
  const { rows } = await server.query('SELECT @@plugin_dir AS dir');
  const bytes = await readFile(path.join(String(rows[0]?.dir ?? ''), soname)).catch(() => null);
  return bytes === null ? null : printableStrings(bytes);
}

/**
 * The layout's option for this server: as the `*.cnf` beside the library gives it, else derived for the running
 * binary (only for a library whose layout is known, checked before INSTALL), cached by the binary's sha256.
 * Prints where each number came from; throws one line saying what to supply where it cannot.
 */
async function offsetsFor(server: StartedServer, layout: OffsetLayout): Promise<ConfigEdit> {
  const plain = layout.option.replace(/^loose-/, '');
  if (!server.configOption || !server.binaryPath) {
    say(
      `${plain} not derived: this ${server.info.target} server's option file is not auditbench's; INSTALL uses its own`,
    );
    return {};
  }
  const given = server.configOption?.(layout.option) ?? server.configOption?.(plain);
  if (given) {
    say(`${plain} as the *.cnf in AUDITBENCH_PLUGIN_DIR gives it: ${given}`);
    return {};
  }
  const supply = `put ${layout.option}=<${layout.fields.length} numbers for this server> in a *.cnf beside ${layout.library.soname} in AUDITBENCH_PLUGIN_DIR`;
  const cannot = (why: string) =>
    new Error(`Cannot derive ${plain} for ${server.info.version}: ${why}; ${supply}`);
  const strings = await libraryStrings(server, layout.library.soname);
  if (strings === null) throw cannot(`${layout.library.soname} is not in the server's plugin directory`);
  if (!layout.library.knows(strings)) {
    throw cannot(
      `${layout.library.soname} has no ${layout.library.marker}, so its ${plain} layout is not one auditbench knows (${layout.id})`,
    );
  }
  const sha256 = await sha256Of(server.binaryPath);
  const dir = path.join(cacheRoot(), 'offsets', layout.id);
  const file = path.join(dir, `${sha256}.json`);
  let cached = await readCache(file);
  if (cached) {
    say(`${plain} for ${server.binaryPath} (sha256 ${sha256.slice(0, 12)}), cached in ${file}:`);
  } else {
    say(
      `deriving ${plain} for ${server.binaryPath} (sha256 ${sha256.slice(0, 12)}): gdb and Debian's source headers`,
    );
    const work = path.join(dir, `${sha256}.work`);
    const derived = await deriveOffsets(layout, server.binaryPath, cacheRoot(), work).catch(
      (error: unknown) => {
        throw cannot(error instanceof Error ? error.message : String(error));
      },
    );
    if (!derived.reconciled.ok) throw cannot(derived.reconciled.why);
    await writeFile(path.join(work, 'gdb-source.txt'), derived.gdb.source);
    await writeFile(path.join(work, 'gdb-binary.txt'), derived.gdb.binary);
    cached = {
      value: offsetsValue(derived.reconciled.offsets),
      lines: describeOffsets(derived.reconciled.offsets),
      mariadbd: server.info.version,
      headers: derived.headers,
    };
    await mkdir(dir, { recursive: true });
    await writeFile(`${file}.part`, `${JSON.stringify(cached, null, 2)}\n`);
    await rename(`${file}.part`, file);
  }
  say(
    `  source layout: Debian's mariadb ${cached.headers}; "binary": read off the accessor in ${server.binaryPath}`,
  );
  for (const line of cached.lines) say(`  ${line}`);
  say(`  for a *.cnf beside the library: ${layout.option}=${cached.value}`);
  return { set: { [layout.option]: cached.value } };
}

/** The install step that gives a supplied library its structure offsets before INSTALL PLUGIN (which reads my.cnf). */
export const offsetsStep = (layout: OffsetLayout): Step => ({
  kind: 'derive',
  what: `${layout.option.replace(/^loose-/, '')} for this server (from the *.cnf beside the library, else derived)`,
  derive: (server) => offsetsFor(server, layout),
});
