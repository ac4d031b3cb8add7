import { expect, test } from 'vitest';
import { aggregateResults, observedOf } from './aggregate.ts';
import type { ResultKey, ResultRecord } from './task-meta.ts';

const key = (version: string): ResultKey => ({
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
