// A path the base's configuration names (`cnf`, `traffic.script`) is read from the base's checkout whatever form it
// takes: relative, absolute into the work tree, with `..`, or through a symlink the base commits. Read from the work
// tree instead, both arms would be the head's and a change to the file would select nothing.
import { lstat, readlink, realpath } from 'node:fs/promises';
import path from 'node:path';
import type { ResolveFile } from '../runs/load-runs.ts';

export interface BaseTree {
  /** The work tree's top directory (the head's). */
  headRoot: string;
  /** The base's checkout of the same repository. */
  baseRoot: string;
}

// More symlinks than this in one path is a loop (Linux's own limit is 40).
const MAX_LINKS = 40;

const inside = (root: string, file: string): string | null => {
  const relative = path.relative(root, file);
  return relative === '' || !(relative.startsWith('..') || path.isAbsolute(relative)) ? relative : null;
};

/** Walks `file` a name at a time, reading each symlink where the base has it and moving what is in the work tree to the checkout. */
async function walkInBase(file: string, tree: BaseTree, headRoots: string[]): Promise<string> {
  const toBase = (p: string): string => {
    if (inside(tree.baseRoot, p) !== null) return p;
    for (const root of headRoots) {
      const relative = inside(root, p);
      if (relative !== null) return path.join(tree.baseRoot, relative);
    }
    return p;
  };
  const names = file.split(path.sep);
  let done = path.parse(file).root;
  let links = 0;
  for (let name = names.shift(); name !== undefined; name = names.shift()) {
    if (name === '' || name === '.') continue;
    if (name === '..') {
      done = toBase(path.dirname(done));
      continue;
    }
    const next = toBase(path.join(done, name));
    const stats = await lstat(next).catch(() => null);
    if (!stats?.isSymbolicLink()) {
      done = next;
      continue;
    }
    if (++links > MAX_LINKS) throw new Error(`${file}: more than ${MAX_LINKS} symlinks on the way, a loop`);
    const target = await readlink(next);
    names.unshift(...target.split(path.sep));
    if (path.isAbsolute(target)) done = path.parse(target).root;
  }
  return done;
}

/**
 * loadRuns' `resolveFile` for the base's configuration, loaded in `tree.baseRoot`: `given` is taken as the head's
 * configuration would take it, beside the same folder in the work tree, then every part of it inside the work tree
 * is read in the checkout. A path outside the repository is read where it is, the same file for both arms.
 */
export function baseTreeResolver(tree: BaseTree): ResolveFile {
  return async (configDir, given) => {
    const headRoots = [...new Set([tree.headRoot, await realpath(tree.headRoot).catch(() => tree.headRoot)])];
    const headConfigDir = path.join(tree.headRoot, path.relative(tree.baseRoot, configDir));
    return walkInBase(path.resolve(headConfigDir, given), tree, headRoots);
  };
}
