import { PINNED_GLIBC_TUNABLES } from '../../src/counted/identity.ts';
import type { CountedIdentity } from '../../src/results/counted-record.ts';

/** A counted record's identity for tests (MariaDB 10.11.19, the counted smoke tables); override what a test is about. */
export function sampleIdentity(overrides: Partial<CountedIdentity> = {}): CountedIdentity {
  return {
    serverVersion: '10.11.19-MariaDB-0+deb12u1',
    serverSha256: 'aa',
    pluginSha256: 'bb',
    configHash: 'cc',
    workload: 'oltp_read_write 4×10000, 150 transactions per arm, seed 42, 1 thread',
    valgrind: 'valgrind-3.19.0',
    glibcSha256: 'dd',
    cpuFeatures: ['sse4_2', 'avx2'],
    glibcTunables: PINNED_GLIBC_TUNABLES,
    hostNameBytes: 12,
    ...overrides,
  };
}
