import { access } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { execa } from 'execa';

const source = fileURLToPath(new URL('../slow-fs/slow_fs.c', import.meta.url));
// Debian's libfuse3-dev: fuse3/fuse.h and libfuse3.so (scripts/setup.sh slow-fs installs it).
const header = '/usr/include/fuse3/fuse.h';

/** Why test/slow-fs/slow_fs.c cannot be compiled here, in one line, or null. */
export async function slowFsBuildProblem(): Promise<string | null> {
  const gcc = await execa('gcc', ['--version'], { reject: false });
  if (gcc.exitCode !== 0)
    return 'no gcc to compile the slow log filesystem (scripts/setup.sh slow-fs installs it)';
  const haveHeader = await access(header).then(
    () => true,
    () => false,
  );
  return haveHeader
    ? null
    : `no ${header} to compile the slow log filesystem against (scripts/setup.sh slow-fs, or apt-get install libfuse3-dev fuse3)`;
}

/**
 * Compiles test/slow-fs/slow_fs.c against libfuse3 into `dir`, the run's own private folder, so that whatever removes
 * the run (its cleanup, the reaper after a SIGKILL) removes the binary too; the binary's path.
 */
export async function buildSlowFs(dir: string): Promise<string> {
  const binary = path.join(dir, 'slow_fs');
  const built = await execa(
    'gcc',
    ['-O2', '-Wall', '-Werror', '-I/usr/include/fuse3', '-o', binary, source, '-lfuse3', '-lpthread'],
    { reject: false },
  );
  if (built.exitCode !== 0)
    throw new Error(`test/slow-fs/slow_fs.c does not compile: ${built.stderr.trim()}`);
  return binary;
}
