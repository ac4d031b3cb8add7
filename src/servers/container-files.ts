import { Buffer } from 'node:buffer';
import path from 'node:path';
import type { StartedTestContainer } from 'testcontainers';
import { resolveInDatadir } from './datadir-path.ts';
import type { ServerFile } from './started-server.ts';
import { tailLines } from './tail.ts';

/** Runs a command in the container; a non-zero exit rejects with what the command printed. */
async function run(container: StartedTestContainer, what: string, command: string[]): Promise<string> {
  const result = await container.exec(command).catch((error: unknown) => {
    const why = error instanceof Error ? error.message : String(error);
    throw new Error(`Cannot ${what}: the container does not run commands (${why}); is the server up?`, {
      cause: error,
    });
  });
  if (result.exitCode !== 0) {
    throw new Error(
      `Cannot ${what} (exit ${result.exitCode}): ${result.stderr.trim() || result.stdout.trim()}`,
    );
  }
  return result.stdout;
}

/**
 * Regular files in one folder of the container, with inode and size: `find -printf`, NUL-separated. A file renamed
 * between find's readdir and its stat (the plugin rotating its log) is left out, as the local server's listing does:
 * without -ignore_readdir_race GNU find reports it missing and exits 1 (findutils is essential in the Debian images).
 */
export async function listContainerFiles(
  container: StartedTestContainer,
  datadir: string,
  dir: string,
): Promise<ServerFile[]> {
  const base = resolveInDatadir(datadir, dir, path.posix);
  const what = `list ${base} in the container`;
  return parseFileListing(await run(container, what, listFilesCommand(base)), dir);
}

/** find(1) over one folder: its regular files, `inode size name` each, NUL-terminated. */
export const listFilesCommand = (base: string): string[] => [
  'find',
  base,
  '-ignore_readdir_race',
  '-mindepth',
  '1',
  '-maxdepth',
  '1',
  '-type',
  'f',
  '-printf',
  '%D:%i %s %f\\0',
];

/** listFilesCommand's output as files named relative to the datadir (`dir`/name); a name may hold spaces. */
export function parseFileListing(out: string, dir: string): ServerFile[] {
  return out
    .split('\0')
    .filter(Boolean)
    .map((entry) => {
      const [id = '', size = '', ...name] = entry.split(' ');
      return { name: path.posix.join(dir, name.join(' ')), sizeBytes: Number(size), fileId: id };
    });
}

/** A file's bytes: base64 through exec, because exec output arrives as text and a log may hold any byte. */
export async function readContainerFile(
  container: StartedTestContainer,
  datadir: string,
  file: string,
): Promise<Buffer> {
  const full = resolveInDatadir(datadir, file, path.posix);
  return Buffer.from(
    await run(container, `read ${full} in the container`, ['base64', '-w0', '--', full]),
    'base64',
  );
}

export async function containerFileExists(container: StartedTestContainer, file: string): Promise<boolean> {
  const result = await container.exec(['test', '-f', file]);
  return result.exitCode === 0;
}

/**
 * What the server says of its config files, or null when it takes them: `--verbose --help` reads them as a
 * start would. The images' entrypoint runs the same check before the server and exits silently when it fails,
 * so the reason would never reach the container log; MySQL passes it and logs the error at start instead.
 * Null as well when the container is not running and cannot be asked.
 */
export async function configProblem(container: StartedTestContainer): Promise<string | null> {
  const script = `s=$(command -v mariadbd || command -v mysqld)
    "$s" --verbose --help --log-bin-index="$(mktemp -u)" >/dev/null`;
  const result = await container.exec(['sh', '-c', script]).catch(() => null);
  if (!result || result.exitCode === 0) return null;
  return tailLines(result.stderr, 10) || `--verbose --help exited with ${result.exitCode}`;
}
