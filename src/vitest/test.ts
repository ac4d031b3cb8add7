import { test as base, expect } from 'vitest';
import { type Environment, loadEnvironment } from '../config/env.ts';
import { profiles } from '../profiles/index.ts';
import { loadRuns } from '../runs/load-runs.ts';
import type { ResolvedRun } from '../runs/runs.ts';
import { auditbenchMatchers } from './matchers.ts';
import { measuredOnceHere } from './measured-folder.ts';
import { benchRun } from './run-bench.ts';
import { auditLog, startRunServer } from './run-server.ts';

// What a DBA's own test file imports (`auditbench/test`): Vitest's `test` with auditbench's fixtures, each set up once
// per file, and the matchers. Runs from the TypeScript sources inside auditbench's project (src/vitest/plugin.ts).

export type { AuditLogBytes, AuditRecord, AuditRecords, RecordPattern } from './audit-records.ts';
export type { AuditbenchMatchers, RunMeasurement } from './matchers.ts';
export type { BenchResult } from './run-bench.ts';
export type { Account, AuditLog, Mark, RunServer } from './run-server.ts';

expect.extend(auditbenchMatchers);

/** The configuration's run a file tests: its id, or '' for the first run (`test.override('runId', 'pci')`). */
export async function findRun(runId: string): Promise<{ config: Environment; run: ResolvedRun }> {
  const config = loadEnvironment();
  const runs = await loadRuns({ ...config, runIds: null }, profiles);
  const run = runId === '' ? runs[0] : runs.find((r) => r.id === runId);
  if (!run) {
    const ids = runs.map((r) => r.id).join(', ') || 'none';
    throw new Error(`runId '${runId}' is not a run of ${config.configPath}: its runs are ${ids}`);
  }
  return { config, run };
}

export const test = base
  .extend('runId', { scope: 'file' }, '' as string)
  .extend('auditRun', { scope: 'file' }, async ({ runId }) => findRun(runId))
  .extend('server', { scope: 'file' }, async ({ auditRun }, { onCleanup }) => {
    const server = await startRunServer(auditRun.config, auditRun.run);
    onCleanup(() => server.close());
    return server;
  })
  .extend('audit', { scope: 'file' }, async ({ server }) => auditLog(server))
  .extend('bench', { scope: 'file' }, async ({ auditRun }) => ({
    /**
     * The run's lifecycle checks and measurement as `auditbench bench` makes them, on a server of its own; when
     * another file of this invocation (the runs suite) measured the run, its A/A and measurement are reused.
     */
    run: () =>
      benchRun(auditRun.config, auditRun.run, measuredOnceHere(expect.getState().testPath ?? 'a test file')),
  }));

export { describe, expect } from 'vitest';
