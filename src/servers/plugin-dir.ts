import { mkdir, readdir, readFile, stat, symlink } from 'node:fs/promises';
import path from 'node:path';
import { execa } from 'execa';
import { parseOptionFile } from '../config/option-file.ts';
import {
  classifyOutsideOptions,
  leftOutLine,
  movedLine,
  type OutsideOption,
} from '../config/outside-options.ts';
import type { PluginLibraries } from '../config/plugin-load.ts';
import type { OptionCatalogue } from '../config/server-help.ts';

/** The plugin directory a server binary was built with, from `--verbose --help`. */
export async function defaultPluginDir(binary: string): Promise<string> {
  const { stdout } = await execa(binary, ['--no-defaults', '--verbose', '--help'], {
    reject: false,
    timeout: 30_000,
  });
  const line = stdout.split('\n').find((l) => /^plugin[-_]dir\s/.test(l));
  const dir = line?.replace(/^plugin[-_]dir\s+/, '').trim();
  if (!dir) throw new Error(`Cannot tell the plugin directory of ${binary} from its --verbose --help output`);
  return dir;
}

/**
 * A private plugin directory holding links to the server's own plugins and to the user's (which win on a
 * name clash), so a supplied .so loads without touching the system's plugin directory.
 */
export async function mergePluginDirs(binary: string, userDir: string, target: string): Promise<string> {
  const info = await stat(userDir).catch(() => null);
  if (!info?.isDirectory()) {
    throw new Error(
      `AUDITBENCH_PLUGIN_DIR '${userDir}' is not a directory: point it at the folder holding the plugin .so`,
    );
  }
  await mkdir(target, { recursive: true });
  const links = new Map<string, string>();
  for (const dir of [await defaultPluginDir(binary), path.resolve(userDir)]) {
    for (const name of await readdir(dir).catch(() => [])) links.set(name, path.join(dir, name));
  }
  for (const [name, source] of links) await symlink(source, path.join(target, name));
  return target;
}

/**
 * The plugin libraries the run's server can load: its binary's plugin directory (the `plugin_dir` its --help prints)
 * and a supplied plugin folder; null without a binary to ask. A DBA's `plugin_load_add` entries are kept by them.
 */
export async function pluginLibraries(
  catalogue: OptionCatalogue | null,
  userDir: string | null,
): Promise<PluginLibraries | null> {
  const dir = catalogue?.defaults.get('plugin_dir');
  if (!dir) return null;
  const dirs = [dir, ...(userDir ? [path.resolve(userDir)] : [])];
  const names = new Set<string>();
  for (const each of dirs) for (const name of await readdir(each).catch(() => [])) names.add(name);
  return { dir: dirs.join(' or '), names };
}

/** The options of a supplied plugin's `*.cnf` files, classified as a DBA's option file is. */
export interface PluginDirOptions {
  options: Record<string, string>;
  /** One line each: what was left out, moved, or not followed (`!include`). */
  lines: string[];
}

/**
 * [mysqld] options a supplied library needs when the server starts, from the `*.cnf` files beside it: e.g. the
 * structure offsets a plugin must be given for a server build it does not know (`loose-` options stay harmless
 * until it is installed). INSTALL PLUGIN re-reads the server's option file, so they need no restart either. They are
 * read as a DBA's option file is (the groups the server reads; no `!include` followed) and classified the same way
 * (src/config/outside-options.ts): a place or port there is left out, a refusal is thrown as one line.
 */
export async function pluginDirOptions(
  userDir: string,
  catalogue: OptionCatalogue | null,
): Promise<PluginDirOptions> {
  const names = (await readdir(userDir).catch(() => [])).filter((name) => name.endsWith('.cnf')).sort();
  const given: OutsideOption[] = [];
  const lines: string[] = [];
  for (const name of names) {
    const file = path.join(userDir, name);
    const parsed = parseOptionFile(await readFile(file, 'utf8'), file, catalogue?.groups ?? undefined);
    lines.push(...parsed.ignored, ...parsed.groups.leftOut.map(leftOutLine));
    given.push(...parsed.lines);
  }
  // The folder's own libraries are the plugins measured, which auditbench installs: a load line there is left out.
  const why = 'auditbench installs a supplied plugin itself';
  const managed = new Map([
    ['plugin_load_add', why],
    ['plugin_load', why],
  ]);
  const classified = classifyOutsideOptions(given, { catalogue, managed });
  if (classified.refusals[0]) throw new Error(`AUDITBENCH_PLUGIN_DIR: ${classified.refusals[0]}`);
  lines.push(...classified.leftOut.map(leftOutLine), ...classified.moved.map(movedLine));
  return { options: classified.kept, lines };
}
