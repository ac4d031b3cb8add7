import { createHash } from 'node:crypto';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { ConfigEdit, StartedServer } from '../../servers/started-server.ts';
import type { Step } from '../steps.ts';
import { deriveOffsets } from './derive-offsets.ts';
import type { OffsetLayout } from './layout.ts';
import { printableStrings } from './library-strings.ts';
import {
  type CachedOffsets,
  freshWorkDir,
  offsetsCacheDir,
  offsetsCacheRoot,
  readCachedOffsets,
  writeCachedOffsets,
} from './offsets-cache.ts';
import { describeOffsets, offsetsValue } from './reconcile.ts';

const say = (line: string) => process.stderr.write(`auditbench offsets: ${line}\n`);

const sha256Of = async (file: string) =>
  createHash('sha256')
    .update(await readFile(file))
    .digest('hex');

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
  const binary = { path: server.binaryPath, version: server.info.version };
  const cached = await cachedOrDerived(binary, layout, cannot);
  say(
    `  source layout: Debian's mariadb ${cached.headers}; "binary": read off the accessor in ${server.binaryPath}`,
  );
  for (const line of cached.lines) say(`  ${line}`);
  say(`  for a *.cnf beside the library: ${layout.option}=${cached.value}`);
  return { set: { [layout.option]: cached.value } };
}

/**
 * The layout's numbers for a binary: from the cache (keyed by the binary's sha256) when the cache and the entry can
 * be trusted, else derived (a bad entry, or a cache that cannot be used, is said in one line).
 */
export async function cachedOrDerived(
  binary: { path: string; version: string },
  layout: OffsetLayout,
  cannot: (why: string) => Error,
  root = offsetsCacheRoot(),
): Promise<CachedOffsets> {
  const plain = layout.option.replace(/^loose-/, '');
  const sha256 = await sha256Of(binary.path);
  const cache = await offsetsCacheDir(root, layout);
  const file = 'dir' in cache ? path.join(cache.dir, `${sha256}.json`) : null;
  const read = file ? await readCachedOffsets(file, layout) : { missing: true as const };
  if ('found' in read) {
    say(`${plain} for ${binary.path} (sha256 ${sha256.slice(0, 12)}), cached in ${file}:`);
    return read.found;
  }
  if ('why' in cache) say(`the offsets cache is not used (${cache.why}): remove it to cache again`);
  if ('bad' in read) say(`the cached entry ${file} is not used (${read.bad}): deriving it again`);
  say(
    `deriving ${plain} for ${binary.path} (sha256 ${sha256.slice(0, 12)}): gdb and Debian's source headers`,
  );
  // Without a cache that can be trusted, the derivation works in a private folder of its own, removed after.
  const place = 'dir' in cache ? { root, dir: cache.dir, scratch: false } : await scratchPlace();
  let cached: CachedOffsets;
  try {
    cached = await derive(binary, layout, place.root, path.join(place.dir, `${sha256}.work`), cannot);
  } finally {
    if (place.scratch) await rm(place.dir, { recursive: true, force: true });
  }
  if (file) await writeCachedOffsets(file, cached);
  return cached;
}

async function scratchPlace(): Promise<{ root: string; dir: string; scratch: true }> {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'offsets-derive-'));
  return { root: dir, dir, scratch: true };
}

/** Derives the layout's numbers for the server's binary, keeping gdb's raw output in `work` (made afresh). */
async function derive(
  binary: { path: string; version: string },
  layout: OffsetLayout,
  cacheRoot: string,
  work: string,
  cannot: (why: string) => Error,
): Promise<CachedOffsets> {
  await freshWorkDir(work);
  const derived = await deriveOffsets(layout, binary.path, cacheRoot, work).catch((error: unknown) => {
    throw cannot(error instanceof Error ? error.message : String(error));
  });
  if (!derived.reconciled.ok) throw cannot(derived.reconciled.why);
  await writeFile(path.join(work, 'gdb-source.txt'), derived.gdb.source);
  await writeFile(path.join(work, 'gdb-binary.txt'), derived.gdb.binary);
  return {
    value: offsetsValue(derived.reconciled.offsets),
    lines: describeOffsets(derived.reconciled.offsets),
    mariadbd: binary.version,
    headers: derived.headers,
  };
}

/** The install step that gives a supplied library its structure offsets before INSTALL PLUGIN (which reads my.cnf). */
export const offsetsStep = (layout: OffsetLayout): Step => ({
  kind: 'derive',
  what: `${layout.option.replace(/^loose-/, '')} for this server (from the *.cnf beside the library, else derived)`,
  derive: (server) => offsetsFor(server, layout),
});
