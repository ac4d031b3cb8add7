import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { execa } from 'execa';
import type { CountedIdentity } from '../results/counted-record.ts';
import type { StartedServer } from '../servers/started-server.ts';

/** CPU features glibc's x86-64 string functions are chosen by (sysdeps/x86/cpu-features.c and the ifunc selectors). */
const GLIBC_SELECTING = [
  'sse4_2',
  'ssse3',
  'avx',
  'avx2',
  'bmi2',
  'erms',
  'fsrm',
  'avx512f',
  'avx512vl',
  'avx512bw',
  'rtm',
];

/**
 * The GLIBC_TUNABLES a counted server runs with: glibc then picks its baseline string functions whatever the CPU
 * offers, so a machine with AVX2 and one without count the same instructions for the same memcpy.
 */
export const PINNED_GLIBC_TUNABLES =
  'glibc.cpu.hwcaps=-AVX2,-AVX,-BMI2,-ERMS,-FSRM,-AVX512F,-AVX512VL,-AVX512BW,-RTM,-SSE4_2,-SSSE3';

/** The features in /proc/cpuinfo's flags that change glibc's choice of code. */
export function selectingFeatures(cpuinfo: string): string[] {
  const flags = new Set((/^flags\s*:\s*(.*)$/m.exec(cpuinfo)?.[1] ?? '').split(/\s+/));
  return GLIBC_SELECTING.filter((f) => flags.has(f));
}

/** Which fields of two identities differ; empty when their counts compare. */
export function identityDifferences(a: CountedIdentity, b: CountedIdentity): string[] {
  const fields: (keyof CountedIdentity)[] = [
    'serverSha256',
    'pluginSha256',
    'configHash',
    'workload',
    'valgrind',
    'glibcSha256',
    'glibcTunables',
  ];
  const differ = fields.filter((f) => JSON.stringify(a[f]) !== JSON.stringify(b[f]));
  // With glibc's choices pinned, the CPU's own features no longer change the code that runs.
  if (a.glibcTunables !== PINNED_GLIBC_TUNABLES && a.cpuFeatures.join() !== b.cpuFeatures.join())
    differ.push('cpuFeatures');
  return differ;
}

async function sha256Of(file: string): Promise<string | null> {
  try {
    return createHash('sha256')
      .update(await readFile(file))
      .digest('hex');
  } catch {
    return null;
  }
}

/** The libc the server process mapped, from /proc/<pid>/maps. */
async function libcOf(pid: number): Promise<string | null> {
  const maps = await readFile(`/proc/${pid}/maps`, 'utf8').catch(() => '');
  return /\s(\/\S*\/libc\.so\.6)$/m.exec(maps)?.[1] ?? null;
}

export async function countedIdentity(
  server: StartedServer,
  soname: string | null,
  configHash: string | null,
  workload: string,
): Promise<CountedIdentity> {
  const pid = server.processId?.() ?? null;
  const libc = pid === null ? null : await libcOf(pid);
  const { rows } = await server.query('SELECT @@plugin_dir AS dir, @@hostname AS host');
  const dir = String(rows[0]?.dir ?? '');
  const valgrind = (await execa('valgrind', ['--version'], { reject: false })).stdout.trim();
  return {
    serverVersion: server.info.version,
    serverSha256: server.binaryPath ? await sha256Of(server.binaryPath) : null,
    pluginSha256: soname ? await sha256Of(path.join(dir, soname)) : null,
    configHash,
    workload,
    valgrind,
    glibcSha256: libc ? await sha256Of(libc) : null,
    cpuFeatures: selectingFeatures(await readFile('/proc/cpuinfo', 'utf8').catch(() => '')),
    glibcTunables: PINNED_GLIBC_TUNABLES,
    hostNameBytes: Buffer.byteLength(String(rows[0]?.host ?? os.hostname())),
  };
}
