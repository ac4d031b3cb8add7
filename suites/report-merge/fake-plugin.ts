import { readFileSync } from 'node:fs';
import { test } from 'vitest';
import type { LifecycleCheck } from '../../src/results/lifecycle-check.ts';
import { type Machine, resultsFileSchema } from '../../src/results/schema.ts';
import type { ResultKey } from '../../src/results/task-meta.ts';

const recorded = resultsFileSchema.parse(
  JSON.parse(
    readFileSync(new URL('../../fixtures/results/results-smoke-server-audit.json', import.meta.url), 'utf8'),
  ),
);

export interface FakePlugin {
  title: string;
  configHash: string;
  machine: Machine;
  overheadPct: number;
  overheadCi95: [number, number];
}

/**
 * A stand-in plugin suite for the report-merge check: its tests attach the recorded result's records to task.meta
 * the way suites/shared/runs-suite.ts does, with no server, so sharding and merging can be checked in seconds.
 */
export function fakePluginSuite(fake: FakePlugin): void {
  const result = recorded.results[0];
  if (!result?.measurement || !result.calibration) throw new Error('the recorded result has a measurement');
  const { measurement, calibration } = result;
  const key: ResultKey = {
    runId: fake.title.toLowerCase().replace(/\W+/g, '-'),
    profileId: null,
    plugin: fake.title.toUpperCase().replace(/\W+/g, '_'),
    title: fake.title,
    server: result.server,
    workload: result.workload,
    limitPct: result.limitPct,
    configHash: fake.configHash,
    machine: fake.machine,
  };
  for (const check of result.lifecycle) {
    test(`${fake.title}: ${check.check}`, (context) => {
      // Read from JSON, so its values are JSON values; the schema only types them as unknown.
      context.task.meta.auditbench = { ...key, kind: 'lifecycle', check: check as LifecycleCheck };
    });
  }
  test(`${fake.title}: A/A calibration`, (context) => {
    context.task.meta.auditbench = { ...key, kind: 'calibration', calibration };
  });
  test(`${fake.title}: overhead`, (context) => {
    const { overheadPct, overheadCi95 } = fake;
    context.task.meta.auditbench = {
      ...key,
      kind: 'measurement',
      measurement: { ...measurement, overheadPct, overheadCi95 },
    };
  });
}

export const shardMachine = (name: string, cores: number): Machine => ({
  hostname: name,
  cpuModel: `Fake CPU ${name}`,
  cores,
  memoryBytes: cores * 4 * 1024 ** 3,
  platform: 'linux',
  node: process.version,
});
