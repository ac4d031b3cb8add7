import { access, chmod, mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { execa } from 'execa';
import { benchAuditFile } from './bench-audit-profile.ts';

const source = fileURLToPath(new URL('../plugin/bench_audit.c', import.meta.url));
// MariaDB's public plugin headers (libmariadbd-dev): mysql/plugin.h and mysql/plugin_audit.h.
const headers = '/usr/include/mariadb/server';

/** A folder as a DBA would supply it: the library, and a *.cnf of the options it needs beside it. */
export interface SuppliedFolder {
  dir: string;
  remove: () => Promise<void>;
}

/**
 * Compiles test/plugin/bench_audit.c into a fresh folder with its `bench_audit.cnf`, or says in one line why it
 * cannot here (no gcc, no headers: `./auditbench test` installs both as root on Debian).
 */
export async function supplyTestPlugin(): Promise<SuppliedFolder | { problem: string }> {
  const gcc = await execa('gcc', ['--version'], { reject: false });
  if (gcc.exitCode !== 0) return { problem: 'no gcc to compile the test plugin (apt-get install gcc)' };
  if (
    !(await access(path.join(headers, 'mysql/plugin_audit.h')).then(
      () => true,
      () => false,
    ))
  ) {
    return {
      problem: `no ${headers}/mysql/plugin_audit.h to compile the test plugin against (apt-get install libmariadbd-dev)`,
    };
  }
  const dir = await mkdtemp(path.join(os.tmpdir(), 'auditbench-supplied-'));
  // The server runs as its own OS user, which must read the library through the private plugin dir's link.
  await chmod(dir, 0o755);
  const remove = () => rm(dir, { recursive: true, force: true });
  const built = await execa(
    'gcc',
    [
      '-shared',
      '-fPIC',
      '-O2',
      '-Wall',
      '-Werror',
      `-I${headers}`,
      '-o',
      path.join(dir, 'bench_audit.so'),
      source,
    ],
    { reject: false },
  );
  if (built.exitCode !== 0) {
    await remove();
    throw new Error(`test/plugin/bench_audit.c does not compile: ${built.stderr.trim()}`);
  }
  await writeFile(
    path.join(dir, 'bench_audit.cnf'),
    [
      '# As a DBA puts the options a supplied library needs beside it.',
      '[mysqld]',
      `loose-bench_audit_file=${benchAuditFile}`,
      "# It declares itself experimental, below MariaDB's default floor (gamma).",
      'plugin_maturity=experimental',
      '',
    ].join('\n'),
  );
  return { dir, remove };
}
