import { lstat } from 'node:fs/promises';
import path from 'node:path';

// What the harness writes (history files, results, reports, junit.xml, gate.md) never follows a symbolic link it did
// not make: a clone may hold `reports/history.jsonl` or `reports` committed as a link to a file elsewhere, and a write
// through it would overwrite that file. Every component from the repository root down is checked with lstat, which
// reports a link as a link instead of following it. Imports nothing of the project's, so any floor may use it.

const isMissing = (error: unknown): boolean => (error as NodeJS.ErrnoException).code === 'ENOENT';

async function lstatOrNull(file: string) {
  try {
    return await lstat(file);
  } catch (error) {
    if (isMissing(error)) return null;
    throw error;
  }
}

/**
 * Where the check of `dir`'s files starts: the nearest folder above it, or itself, that holds `.git` and is not itself
 * a link (the repository's root; a link's `.git` would be another repository's), else `dir`'s parent, so that `dir`
 * is checked too.
 */
export async function writeRoot(dir: string): Promise<string> {
  const absolute = path.resolve(dir);
  for (let at = absolute; ; at = path.dirname(at)) {
    const info = await lstatOrNull(at);
    if (info && !info.isSymbolicLink() && (await lstatOrNull(path.join(at, '.git')))) return at;
    if (path.dirname(at) === at) return path.dirname(absolute);
  }
}

/** The first component of `target` below `root` that is a symbolic link, or null; `target` must be inside `root`. */
export async function linkOnPath(root: string, target: string): Promise<string | null> {
  const from = path.resolve(root);
  const relative = path.relative(from, path.resolve(target));
  if (relative.startsWith('..') || path.isAbsolute(relative)) {
    throw new Error(`${target} is outside ${from}, where auditbench checks what it writes`);
  }
  let at = from;
  for (const name of relative.split(path.sep).filter(Boolean)) {
    at = path.join(at, name);
    const info = await lstatOrNull(at);
    if (info === null) return null;
    if (info.isSymbolicLink()) return at;
  }
  return null;
}

/** The one line that refuses a write through `link`, for the file `target`. */
export const linkRefusal = (link: string, target: string): string =>
  `${link} is a symbolic link, and auditbench writes ${target} only where no link it did not make leads: remove the link (or set AUDITBENCH_REPORT_DIR to a folder of real directories)`;

/**
 * Refuses `target` (one line, naming the link) when a component from its repository's root down is a link; outside a
 * repository, from `dir`'s parent down (`dir`: the folder the user named, by default the file's own).
 */
export async function refuseLinks(target: string, dir = path.dirname(target)): Promise<void> {
  const link = await linkOnPath(await writeRoot(dir), target);
  if (link !== null) throw new Error(linkRefusal(link, target));
}

/** `<report dir>/<names…>`, once no component from the repository's root down to it is a link. */
export async function reportPath(reportDir: string, ...names: string[]): Promise<string> {
  const target = path.join(reportDir, ...names);
  await refuseLinks(target, reportDir);
  return target;
}
