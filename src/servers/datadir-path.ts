import path from 'node:path';

/**
 * A datadir-relative path made absolute; refused when it leaves the datadir, because a target reads only its
 * server's files. `paths` is path.posix for a datadir inside a container.
 */
export function resolveInDatadir(datadir: string, relative: string, paths = path): string {
  const root = paths.resolve(datadir);
  const file = paths.resolve(root, relative);
  if (file !== root && !file.startsWith(`${root}${paths.sep}`)) {
    throw new Error(`'${relative}' is outside the server's datadir: only files in the datadir can be read`);
  }
  return file;
}
