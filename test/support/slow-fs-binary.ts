import { access, mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { execa } from 'execa';
import { tempPrefix } from '../../src/servers/cleanup.ts';

const source = fileURLToPath(new URL('../slow-fs/slow_fs.c', import.meta.url));
// Debian's libfuse3-dev: fuse3/fuse.h and libfuse3.so (scripts/setup.sh slow-fs installs it).
const header = '/usr/include/fuse3/fuse.h';

export interface SlowFsBinary {
  binary: string;
  remove: () => Promise<void>;
}

/**
 * Compiles test/slow-fs/slow_fs.c against libfuse3 into a fresh folder, or says in one line why it cannot here.
 */
export async function buildSlowFs(): Promise<SlowFsBinary | { problem: string }> {
  const gcc = await execa('gcc', ['--version'], { reject: false });
  if (gcc.exitCode !== 0)
    return { problem: 'no gcc to compile the slow log filesystem (apt-get install gcc)' };
  const haveHeader = await access(header).then(
    () => true,
    () => false,
  );
  if (!haveHeader) {
    return {
      problem: `no ${header} to compile the slow log filesystem against (scripts/setup.sh slow-fs, or apt-get install libfuse3-dev fuse3)`,
    };
  }
  const dir = await mkdtemp(path.join(os.tmpdir(), `${tempPrefix}slowfs-bin-`));
  const remove = () => rm(dir, { recursive: true, force: true });
  const binary = path.join(dir, 'slow_fs');
  const built = await execa(
    'gcc',
    ['-O2', '-Wall', '-Werror', '-I/usr/include/fuse3', '-o', binary, source, '-lfuse3', '-lpthread'],
    { reject: false },
  );
  if (built.exitCode !== 0) {
    await remove();
    throw new Error(`test/slow-fs/slow_fs.c does not compile: ${built.stderr.trim()}`);
  }
  return { binary, remove };
}
