import { expect, test } from 'vitest';
import { aggregateResults, observedOf } from './aggregate.ts';
import type { ResultKey, ResultRecord } from './task-meta.ts';

const key = (version: string): ResultKey => ({
  runId: 'server_audit',
  profileId: 'server_audit',
  plugin: 'SERVER_AUDIT',
  title: 'MariaDB server_audit',
  server: { flavor: 'mariadb', version, target: 'local' },
  workload: 'smoke',
  limitPct: 50,
});

test('records of one plugin × server × workload merge into one result; another server gets its own', () => {
  const records: ResultRecord[] = [
    {
      ...key('10.11'),
      kind: 'lifecycle',
      check: { check: 'install', expected: 'ACTIVE', observed: 'ACTIVE', ok: true },
    },
    {
      ...key('10.5'),
      kind: 'lifecycle',
      check: { check: 'install', expected: 'ACTIVE', observed: null, ok: false },
    },
    {
      ...key('10.11'),
      kind: 'lifecycle',
      check: {
        check: 'rotation',
        expected: { rotatedFiles: [1] },
        observed: { rotatedFiles: [1] },
        ok: true,
      },
    },
  ];
  const results = aggregateResults(records);
  expect(results).toHaveLength(2);
  expect(results[0]?.lifecycle.map((c) => c.check)).toEqual(['install', 'rotation']);
  expect(results[0]?.verdict).toBe('error');
  expect(results[0] && observedOf(results[0], 'rotation')).toEqual({ rotatedFiles: [1] });
  expect(results[1]?.lifecycle[0]?.ok).toBe(false);
});

test('the config hash and measuring machine a suite attached are carried into the result', () => {
  const machine = {
    hostname: 'shard-1',
    cpuModel: 'AMD EPYC',
    cores: 2,
    memoryBytes: 25_276_026_880,
    platform: 'linux',
    node: 'v20.20.2',
  };
  const check = { check: 'install', expected: 'ACTIVE', observed: 'ACTIVE', ok: true };
  const [withBoth] = aggregateResults([
    { ...key('10.11'), configHash: 'abc123def456', machine, kind: 'lifecycle', check },
  ]);
  expect(withBoth).toMatchObject({ configHash: 'abc123def456', machine });
  const [without] = aggregateResults([{ ...key('10.11'), kind: 'lifecycle', check }]);
  expect(without && 'configHash' in without).toBe(false);
});
