import { readFileSync } from 'node:fs';
import { expect, test } from 'vitest';
import { resultsFileSchema } from '../results/schema.ts';
import { historyEntrySchema, machineFingerprint, toHistoryEntries } from './entry.ts';

const recorded = resultsFileSchema.parse(
  JSON.parse(
    readFileSync(new URL('../../fixtures/results/results-smoke-server-audit.json', import.meta.url), 'utf8'),
  ),
);
const revision = { commit: 'e27add4', branch: 'main' };

test('a recorded results.json becomes one valid history entry per result', () => {
  const entries = toHistoryEntries(recorded, revision, 'invocation-1');
  expect(entries).toHaveLength(1);
  const [entry] = entries;
  expect(historyEntrySchema.parse(entry)).toEqual(entry);
  expect(entry).toMatchObject({
    invocationId: 'invocation-1',
    // The fixture's result has no configured run.
    runId: null,
    recordedAt: recorded.generatedAt,
    commit: 'e27add4',
    branch: 'main',
    title: 'MariaDB server_audit',
    // Recorded before suites attached a hash: comparisons then say the configuration is unknown.
    configHash: null,
    fingerprint: 'AMD EPYC ×2, 24 GiB',
    verdict: 'pass',
  });
  expect(entry?.overheadPct).toBeCloseTo(7.25, 2);
});

test("a result's own machine and hash win over the reporting machine's (shards merged elsewhere)", () => {
  const [first] = recorded.results;
  if (!first) throw new Error('fixture has a result');
  const shardMachine = {
    ...recorded.machine,
    cpuModel: 'Intel Xeon',
    cores: 24,
    memoryBytes: 128 * 1024 ** 3,
  };
  const file = { ...recorded, results: [{ ...first, configHash: 'abc', machine: shardMachine }] };
  const [entry] = toHistoryEntries(file, revision, 'invocation-2');
  expect(entry).toMatchObject({ configHash: 'abc', fingerprint: 'Intel Xeon ×24, 128 GiB' });
});

test.for([
  [25_276_026_880, 'AMD EPYC ×2, 24 GiB'],
  [25_200_000_000, 'AMD EPYC ×2, 23 GiB'],
] as const)('memory %d bytes fingerprints as %s', ([memoryBytes, fingerprint]) => {
  expect(machineFingerprint({ cpuModel: 'AMD EPYC', cores: 2, memoryBytes })).toBe(fingerprint);
});
