import { mkdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { execa } from 'execa';
import { parseDisassembly, parseFieldOffsets } from './gdb-output.ts';
import type { OffsetLayout } from './layout.ts';
import { accessorOffsets, type Reconciled, reconcileOffsets } from './reconcile.ts';

const sourceHeadersScript = fileURLToPath(
  new URL('../../../scripts/plugins/mariadb-source-headers.sh', import.meta.url),
);

/** At least this many accessors must be read off the binary, or gdb did not work (no gdb, stripped exports). */
const MIN_ACCESSORS = 10;

/** `Ver 10.11.19-MariaDB-0+deb12u1` → that version and its series (10.11). */
async function serverVersion(mysqld: string): Promise<{ version: string; series: string }> {
  const { stdout } = await execa(mysqld, ['--version'], { timeout: 10_000 });
  const version = /\bVer (\S+)/.exec(stdout)?.[1] ?? '';
  const series = /^(\d+\.\d+)\./.exec(version)?.[1];
  if (!version.includes('MariaDB') || !series) {
    throw new Error(
      `${mysqld} is '${version || stdout.trim()}': offsets are derived for MariaDB servers only`,
    );
  }
  return { version, series };
}

/** The probe: one pointer per structure the layout names, so gdb can read each member's offset. */
function probeSource(layout: OffsetLayout): string {
  const fields = [...layout.fields, ...layout.anchorsOnly].filter((f): f is string => f !== null);
  const types = [...new Set(fields.map((f) => f.split('.')[0]))];
  return [
    '#define MYSQL_DYNAMIC_PLUGIN 1',
    '#define MYSQL_SERVER 1',
    '#define DONT_MAP_VIO',
    '#include <my_config.h>',
    '#include <mysql_version.h>',
    '#include <my_global.h>',
    '#include <mysql/plugin.h>',
    '#include <sql_parse.h>',
    '#include <sql_class.h>',
    '#include <storage/perfschema/pfs_instr.h>',
    ...types.map((type) => `${type} *probe_${type};`),
    '',
  ].join('\n');
}

/** Each field's offset in the source tree, compiled as a plugin is (-O2 -DDBUG_OFF -DNDEBUG) and read with gdb. */
async function sourceOffsets(layout: OffsetLayout, tree: string, work: string): Promise<string> {
  await writeFile(path.join(work, 'probe.cc'), probeSource(layout));
  const include = ['include', 'sql', '.', 'wsrep-lib/include', 'wsrep-lib/wsrep-API/v26'].map(
    (dir) => `-I${path.join(tree, dir)}`,
  );
  const compiled = await execa(
    'g++',
    [
      ...['-std=c++17', '-g', '-O2', '-DDBUG_OFF', '-DNDEBUG', '-fno-eliminate-unused-debug-types'],
      ...['-femit-class-debug-always', ...include, '-c', '-o', 'probe.o', 'probe.cc'],
    ],
    { cwd: work, reject: false },
  );
  if (compiled.exitCode !== 0) {
    await writeFile(path.join(work, 'probe.log'), compiled.stderr);
    throw new Error(`the offset probe does not compile against ${tree} (${path.join(work, 'probe.log')})`);
  }
  const fields = [...layout.fields, ...layout.anchorsOnly].filter((f): f is string => f !== null);
  const prints = fields.flatMap((field) => {
    const [type, member] = field.split('.');
    return ['-ex', `printf "${field} %d\\n", (unsigned long)&probe_${type}->${member}`];
  });
  const { stdout } = await execa('gdb', ['-n', '-batch', ...prints, 'probe.o'], { cwd: work, reject: false });
  return stdout;
}

/** gdb's disassembly of every accessor the layout names, from the installed binary. */
async function accessorDisassembly(layout: OffsetLayout, mysqld: string): Promise<string> {
  const functions = [...new Set(layout.accessors.map((a) => a.fn))];
  const args = functions.flatMap((fn) => ['-ex', `disassemble ${fn}`]);
  const { stdout } = await execa('gdb', ['-n', '-batch', ...args, mysqld], { reject: false });
  return stdout;
}

export interface Derivation {
  reconciled: Reconciled;
  /** Debian's source version the headers came from (the installed one, else the nearest of the series). */
  headers: string;
  /** gdb's raw output, kept beside the cache for whoever checks a number. */
  gdb: { source: string; binary: string };
}

/**
 * The layout's offsets for one MariaDB binary without debug symbols: the source tree's layout (Debian's source
 * package, `scripts/plugins/mariadb-source-headers.sh`) corrected by what the binary's own accessors read
 * (`reconcileOffsets`). Needs gdb, g++, dpkg-dev and libmariadbd-dev; throws one line naming what failed.
 */
export async function deriveOffsets(
  layout: OffsetLayout,
  mysqld: string,
  cacheRoot: string,
  work: string,
): Promise<Derivation> {
  const { version, series } = await serverVersion(mysqld);
  for (const tool of ['gdb', 'g++']) {
    const found = await execa('sh', ['-c', `command -v ${tool}`], { reject: false });
    if (found.exitCode !== 0)
      throw new Error(`${tool} is not installed (apt-get install gdb g++ dpkg-dev libmariadbd-dev)`);
  }
  await mkdir(work, { recursive: true });
  const binary = await accessorDisassembly(layout, mysqld);
  const read = accessorOffsets(layout, parseDisassembly(binary));
  if (read.size < MIN_ACCESSORS) {
    throw new Error(
      `only ${read.size} of ${layout.accessors.length} accessor offsets could be read from ${mysqld}`,
    );
  }
  const headers = await execa(sourceHeadersScript, [path.join(cacheRoot, 'mariadb-src'), version, series], {
    reject: false,
  });
  const tree = headers.stdout.trim().split('\n').at(-1) ?? '';
  if (headers.exitCode !== 0 || !tree) {
    const why = headers.stderr.trim().split('\n').at(-1) ?? 'no reason given';
    throw new Error(`no MariaDB ${series} source headers for ${version} (${why})`);
  }
  const source = await sourceOffsets(layout, tree, work);
  const reconciled = reconcileOffsets(layout, parseFieldOffsets(source), read);
  const debianVersion = await readFile(path.join(tree, '.debian-version'), 'utf8').catch(() => 'unknown');
  return { reconciled, headers: debianVersion.trim(), gdb: { source, binary } };
}
