import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, test } from 'vitest';
import { quietProbe, scriptedSysbench } from '../../test/support/scripted-sysbench.ts';
import { toyProfile } from '../../test/support/toy-profile.ts';
import { loadEnvironment } from '../config/env.ts';
import { type ResolvedRun, resolveRun } from '../runs/runs.ts';
import type { SysbenchRunner } from '../workload/sysbench-runner.ts';
import { getWorkload } from '../workload/workloads.ts';
import { type MeasuredOnce, measuredIn } from './measured-once.ts';
import { type RunOnServer, runsOnServer } from './runs-on-server.ts';

// The runs suite's work without Vitest's test functions and without a server: the fake server, a scripted sysbench
// whose arm is what the fake was last told of `toy`, and a quiet machine whose clock stands still.

const toyRun = (over: Record<string, unknown> = {}): ResolvedRun =>
  resolveRun({ plugin: toyProfile, id: 'toy', ...over } as never, toyProfile, null);

/** Off runs at 1000 TPS, on runs at `onTps`, with a little spread; an A/A (DO 0 both arms) reads off throughout. */
const harness = (
  onTps: number,
  env: Record<string, string> = {},
  runs = [toyRun()],
  measuredOnce: MeasuredOnce | null = null,
) => {
  const { server, runner, calls } = scriptedSysbench(
    [950, 960],
    (arm, n) => (arm === 'off' ? 1000 : onTps) + (n % 2 ? 3 : -3),
    { info: { flavor: 'mariadb', version: '10.11.19' }, pluginFiles: ['toy.so'] },
    getWorkload('seed').durationS,
  );
  const lines: string[] = [];
  const config = loadEnvironment({ AUDITBENCH_WORKLOAD: 'seed', AUDITBENCH_COUNTED: 'off', ...env });
  const session = runsOnServer(
    config,
    runs,
    {
      startServer: async () => server,
      sysbench: runner as SysbenchRunner,
      probe: quietProbe(),
      cpus: 2,
      log: (line) => lines.push(line),
    },
    measuredOnce,
  );
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
    expect(kinds).not.toContain('rates');
    expect(run.tests[measured]?.title).toBe('overhead under the seed workload is within 10%');
  });

  test('a local run is counted unless the channel is off: its rates in its slot, its count after the runs', () => {
    const { session } = harness(700, { AUDITBENCH_COUNTED: 'auto' }, [toyRun(), toyRun({ id: 'toy2' })]);
    const [run] = session.runs as [RunOnServer];
    expect(run.tests.map((t) => t.kind)).toContain('rates');
    expect(session.counts.map((c) => c.title)).toEqual([
      'toy: counted cost per transaction under callgrind, beside the wall clock',
      'toy2: counted cost per transaction under callgrind, beside the wall clock',
    ]);
    expect(session.countsTitle).toBe('counts after the runs, under callgrind, up to 3 at once');
    expect(harness(700).session.counts).toEqual([]);
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

describe('a run measured once per invocation', () => {
  /** Every test of the session's one run, in order, after the first; the sysbench calls each session made. */
  async function everyTest(h: ReturnType<typeof harness>) {
    await h.session.start();
    await h.session.prepare();
    const [run] = h.session.runs as [RunOnServer];
    await run.open();
    const outcomes = [];
    for (const planned of run.tests)
      outcomes.push({ kind: planned.kind, outcome: await run.perform(planned) });
    await run.close();
    await h.session.stop();
    return outcomes;
  }

  test("the second file reuses the first one's A/As and measurements, says so, and takes no block; checks run again", async () => {
    const dir = await mkdtemp(path.join(tmpdir(), 'auditbench-measured-test-'));
    try {
      const runs = [toyRun()];
      const first = harness(700, {}, runs, measuredIn(dir, 'suites/runs.suite.ts'));
      const measured = await everyTest(first);
      expect(await readdir(dir)).toHaveLength(1);
      const second = harness(700, {}, runs, measuredIn(dir, 'audit/compliance.test.ts'));
      const reused = await everyTest(second);
      const measuring = (o: typeof measured) => o.filter((t) => t.kind !== 'check').map((t) => t.outcome);
      expect(measuring(reused)).toEqual(measuring(measured));
      expect(second.lines.join('\n')).toContain(
        'measured earlier in this invocation by suites/runs.suite.ts: its A/A and measurements are reused, not taken again',
      );
      expect(second.lines.join('\n')).toContain('the shared A/A is not taken again');
      // Only the checks ran sysbench-free statements; the measuring tests ran no sysbench at all.
      expect(second.calls.length).toBe(0);
      expect(first.calls.length).toBeGreaterThan(0);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  test('another configuration of the run is measured, not reused', async () => {
    const dir = await mkdtemp(path.join(tmpdir(), 'auditbench-measured-test-'));
    try {
      await everyTest(harness(700, {}, [toyRun()], measuredIn(dir, 'a.ts')));
      const other = harness(700, {}, [toyRun({ maxOverheadPct: 20 })], measuredIn(dir, 'b.ts'));
      await everyTest(other);
      expect(other.calls.length).toBeGreaterThan(0);
      expect(other.lines.join('\n')).not.toContain('measured earlier');
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
