import { describe, expect, test } from 'vitest';
import { toyProfile } from '../../test/support/toy-profile.ts';
import { type ResolvedRun, resolveRun } from '../runs/runs.ts';
import { getWorkload } from '../workload/workloads.ts';
import { runIdentity } from './run-identity.ts';

const toyRun = (over: Record<string, unknown> = {}): ResolvedRun =>
  resolveRun({ plugin: toyProfile, id: 'toy', ...over } as never, toyProfile, null);
const seed = getWorkload('seed');
const server = { flavor: 'mariadb', version: '10.11.19', target: 'local' } as const;

describe('one identity, one key function', () => {
  const id = runIdentity(toyRun({ threads: [seed.threads, 4] }), seed, { cpus: 2, external: false });
  const [own, other] = id.points as [(typeof id.points)[0], (typeof id.points)[0]];

  test("the workload's own point keeps the run's id and title; it is the run's own point", () => {
    expect(id.ownPoint).toEqual(own);
    expect(id.key()).toMatchObject({ runId: 'toy', title: 'Toy audit' });
    expect(id.key({ point: own })).toEqual(id.key());
  });

  test('another point and an open loop each get an id, a title and a hash of their own', () => {
    const sweep = id.key({ point: other });
    const open = id.key({ point: other, ratePerS: 350 });
    expect(sweep.runId).toBe(`toy@t4-${other.cores}`);
    expect(sweep.title).toBe(`Toy audit · 4 threads, ${other.cores} cores`);
    expect(open.runId).toBe(`toy@t4-${other.cores}-open`);
    expect(open.title).toBe(`Toy audit · open loop at 350 tx/s, 4 threads, ${other.cores} cores`);
    expect(new Set([id.key().configHash, sweep.configHash, open.configHash]).size).toBe(3);
  });

  test("the record's key is the same key, and a failure line says where", () => {
    expect(id.resultKey(server, { point: other })).toMatchObject({
      runId: `toy@t4-${other.cores}`,
      configHash: id.key({ point: other }).configHash,
      limitPct: 10,
      workload: 'seed',
    });
    expect(id.where(server, { point: own })).toBe('Toy audit on mariadb 10.11.19, seed workload');
    expect(id.where(server, { point: other, ratePerS: 350 })).toBe(
      `Toy audit in an open loop at 350 tx/s (4 threads, ${other.cores} cores) on mariadb 10.11.19, seed workload`,
    );
  });
});
