import { describe, expect, test } from 'vitest';
import { quietProbe, scriptedSysbench } from '../../test/support/scripted-sysbench.ts';
import { toyProfile } from '../../test/support/toy-profile.ts';
import { loadEnvironment } from '../config/env.ts';
import { type ResolvedRun, resolveRun } from '../runs/runs.ts';
import type { SysbenchRunner } from '../workload/sysbench-runner.ts';
import { getWorkload } from '../workload/workloads.ts';
import { type RunOnServer, runsOnServer } from './runs-on-server.ts';

// The runs suite's work without Vitest's test functions and without a server: the fake server, a scripted sysbench
// whose arm is what the fake was last told of `toy`, and a quiet machine whose clock stands still.

const toyRun = (over: Record<string, unknown> = {}): ResolvedRun =>
  resolveRun({ plugin: toyProfile, id: 'toy', ...over } as never, toyProfile, null);

/** Off runs at 1000 TPS, on runs at `onTps`, with a little spread; an A/A (DO 0 both arms) reads off throughout. */
const harness = (onTps: number, env: Record<string, string> = {}, runs = [toyRun()]) => {
  const { server, runner, calls } = scriptedSysbench(
    [950, 960],
    (arm, n) => (arm === 'off' ? 1000 : onTps) + (n % 2 ? 3 : -3),
    { info: { flavor: 'mariadb', version: '10.11.19' }, pluginFiles: ['toy.so'] },
    getWorkload('seed').durationS,
  );
  const lines: string[] = [];
  const config = loadEnvironment({ AUDITBENCH_WORKLOAD: 'seed', AUDITBENCH_COUNTED: 'off', ...env });
  const session = runsOnServer(config, runs, {
    startServer: async () => server,
    sysbench: runner as SysbenchRunner,
    probe: quietProbe(),
    cpus: 2,
    log: (line) => lines.push(line),
  });
  return { session, calls, lines, server };
};

const perform = (run: RunOnServer, kind: string) => {
  const planned = run.tests.find((t) => t.kind === kind);
  if (!planned) throw new Error(`no ${kind} test`);
  return run.perform(planned);
};

describe('what a run declares', () => {
  test('lifecycle checks, the A/A that applies, the measurement, then the checks after it; no count when off', () => {
    const [run] = harness(700).session.runs as [RunOnServer];
    const kinds = run.tests.map((t) => t.kind);
    const measured = kinds.indexOf('measurement');
    expect(kinds.slice(0, measured).filter((k) => k !== 'check')).toEqual(['calibration']);
    expect(kinds.slice(measured + 1).every((k) => k === 'check')).toBe(true);
    expect(kinds).not.toContain('counted');
    expect(run.tests[measured]?.title).toBe('overhead under the seed workload is within 10%');
  });

  test('a local run is counted unless the channel is off', () => {
    const [run] = harness(700, { AUDITBENCH_COUNTED: 'auto' }).session.runs as [RunOnServer];
    expect(run.tests.map((t) => t.kind)).toContain('counted');
  });

  test('a sweep of threads gets an A/A and a measurement per point, then the open loop', () => {
    const [run] = harness(700, {}, [toyRun({ threads: [1, 4] })]).session.runs as [RunOnServer];
    const kinds = run.tests.map((t) => t.kind).filter((k) => k !== 'check');
    expect(kinds).toEqual([
      'calibration',
      'point-calibration',
      'measurement',
      'point-calibration',
      'measurement',
      'open-loop',
    ]);
  });
});

describe('what a run does', () => {
  test('the shared A/A is measured first and holds 0; the measurement of a clear excess fails, naming the run', async () => {
    const { session } = harness(700);
    await session.start();
    const first = await session.prepare();
    expect(first.expectations?.[0]?.observed).toBe(true);
    const [run] = session.runs as [RunOnServer];
    await run.open();
    const applies = await perform(run, 'calibration');
    expect(applies.record?.kind).toBe('calibration');
    const measured = await perform(run, 'measurement');
    expect(measured.record).toMatchObject({ runId: 'toy', profileId: null, kind: 'measurement' });
    expect(measured.failure).toMatch(/^Toy audit on mariadb .*, seed workload: /);
    await run.close();
  });

  test('a cost under the limit passes with no failure line', async () => {
    const { session } = harness(990);
    await session.start();
    await session.prepare();
    const [run] = session.runs as [RunOnServer];
    await run.open();
    await perform(run, 'calibration');
    const measured = await perform(run, 'measurement');
    expect(measured.record?.kind === 'measurement' && measured.record.measurement.verdict).toBe('pass');
    expect(measured.failure).toBeUndefined();
  });

  test('the open loop is skipped, saying why, when its closed-loop point has no baseline', async () => {
    const { session } = harness(700, {}, [toyRun({ threads: [1, 4] })]);
    await session.start();
    const [run] = session.runs as [RunOnServer];
    await run.open();
    const open = await perform(run, 'open-loop');
    expect(open.skip).toMatch(/did not finish, so no baseline sets the rate/);
  });

  test('a plugin whose library is not here skips every test of its run, with the reason', async () => {
    const { session, server } = harness(700);
    await session.start();
    Object.assign(server, { pluginFileExists: async () => false });
    const [run] = session.runs as [RunOnServer];
    await run.open();
    const outcome = await perform(run, 'measurement');
    expect(outcome.skip).toMatch(/^toy\.so is not in the server's plugin directory/);
  });

  test('a sweep point gets its own A/A and id; the open loop runs at a share of its baseline, naming it', async () => {
    const { session } = harness(990, {}, [toyRun({ threads: [1, 4] })]);
    await session.start();
    const [run] = session.runs as [RunOnServer];
    await run.open();
    const at4 = run.tests.filter((t) => 'point' in t && t.point.threads === 4);
    const outcomes = [];
    for (const planned of at4) outcomes.push(await run.perform(planned));
    const [calibration, measurement, open] = outcomes;
    expect(calibration?.expectations?.[0]?.label).toMatch(/^the A\/A interval at 4 threads should contain 0/);
    expect(calibration?.record).toMatchObject({
      kind: 'calibration',
      runId: expect.stringMatching(/^toy@t4-/),
    });
    const sweep = measurement?.record?.runId;
    expect(measurement?.record).toMatchObject({ kind: 'measurement', measurement: { sweepOf: 'toy' } });
    expect(open?.record).toMatchObject({
      runId: `${sweep}-open`,
      measurement: { openLoop: { ofBaselinePct: 70, baselineRunId: sweep } },
    });
    await run.close();
  });

  test('a check that throws is recorded as not completing; after close the run has no state', async () => {
    const { session } = harness(700);
    await session.start();
    const [run] = session.runs as [RunOnServer];
    await run.open();
    const failing = {
      kind: 'check' as const,
      title: 'throws',
      step: {
        id: 'throws',
        title: 'throws',
        run: async () => {
          throw new Error('no such table');
        },
      },
    };
    const outcome = await run.perform(failing as never);
    expect(outcome.record).toMatchObject({
      kind: 'lifecycle',
      check: { check: 'throws', ok: false, observed: 'error: no such table' },
    });
    expect(outcome.error).toBeInstanceOf(Error);
    await run.close();
    await expect(run.perform(failing as never)).rejects.toThrow(/^toy: the run did not start/);
  });
});
