import type { HistoryEntry } from '../../src/history/entry.ts';
import { sampleIdentity } from './sample-identity.ts';

/** A measured history entry for tests; override what the test is about. */
export function sampleEntry(overrides: Partial<HistoryEntry> = {}): HistoryEntry {
  return {
    v: 1,
    invocationId: 'invocation-base',
    recordedAt: '2026-11-29T10:00:00.000Z',
    commit: 'aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa',
    branch: 'main',
    plugin: 'SERVER_AUDIT',
    profileId: 'server_audit',
    title: 'MariaDB server_audit',
    runId: 'server_audit',
    configHash: 'c0ffee000001',
    server: { flavor: 'mariadb', version: '10.11.19-MariaDB-0+deb12u1', target: 'local' },
    workload: 'smoke',
    machine: { cpuModel: 'AMD EPYC', cores: 2, memoryBytes: 25_276_026_880 },
    fingerprint: 'AMD EPYC ×2, 24 GiB',
    hostname: null,
    verdict: 'pass',
    overheadPct: 10,
    overheadCi95: [8, 12],
    pairs: 6,
    limitPct: 50,
    noiseFloorPct: 2,
    baselineTps: 2000,
    pluginTps: 1800,
    counted: null,
    ...overrides,
  };
}

/** An entry's counted figures for tests: `pct` more instructions per transaction, ±0.2 points, the rest fixed. */
export const sampleCounted = (pct: number): NonNullable<HistoryEntry['counted']> => ({
  identity: sampleIdentity(),
  instructionsPct: pct,
  instructionsPctCi95: [pct - 0.2, pct + 0.2],
  instructionsAddedPerTx: 1000,
  writeCallsAddedPerTx: 30,
  logBytesNetAddedPerTx: 900,
  eventsPerTx: 20,
});
