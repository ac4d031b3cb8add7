import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, test } from 'vitest';
import { quietProbe, scriptedSysbench } from '../../test/support/scripted-sysbench.ts';
import { toyProfile } from '../../test/support/toy-profile.ts';
import { loadEnvironment } from '../config/env.ts';
import type { Comparison, GatePlanFile } from '../gate/plan-file.ts';
import { gateMark, verdictLine } from '../gate/verdict.ts';
import { type ResolvedRun, resolveRun } from '../runs/runs.ts';
import type { SysbenchRunner } from '../workload/sysbench-runner.ts';
import { getWorkload } from '../workload/workloads.ts';
import { gateOnServer } from './gate-on-server.ts';
import type { Seams } from './seams.ts';

// The PR gate's sequence without Vitest and without a server, as runs-on-server.test.ts does the runs': the fake
// server, a scripted sysbench whose throughput follows the last toy_events the fake was told (base sets CONNECT, head
// CONNECT,QUERY), and a quiet machine whose clock stands still. The verdicts go to a file, as for the gate command.

const toyRun = (settings: Record<string, string>): ResolvedRun =>
  resolveRun({ plugin: toyProfile, id: 'toy', settings } as never, toyProfile, null);

const compare: Comparison = {
  kind: 'compare',
  runId: 'toy',
  because: 'its settings changed',
  design: 'toggle',
  why: 'SET GLOBAL settings switch while the server runs',
  differences: ['toy_events'],
};

/** Base at 1000 TPS, head at `headTps`, with a little spread. */
// Each harness's verdicts folder, removed once the file's tests are done (189 were left in /tmp by 2026-12-06).
const folders: string[] = [];
afterAll(() => {
  for (const folder of folders) rmSync(folder, { recursive: true, force: true });
});

function harness(
  headTps: number,
  comparisons: Comparison[] = [compare],
  pluginFiles = ['toy.so'],
  headSettings: Record<string, string> = {},
  count: Pick<Seams, 'countComparison'> | null = null,
) {
  let events = '';
  const { server, runner } = scriptedSysbench(
    [950, 960],
    (_arm, n) => {
      // A head at 0 TPS stands for a wall clock that fails, as a sysbench run that exits non-zero does.
      if (headTps === 0)
        throw new Error('sysbench exited 1: FATAL: unable to connect\n    at runSysbench (x.ts:1)');
      return (events.includes('QUERY') ? headTps : 1000) + (n % 2 ? 3 : -3);
    },
    {
      info: { flavor: 'mariadb', version: '10.11.19' },
      pluginFiles,
      rules: [
        { match: /SELECT @@GLOBAL\.toy_rate AS value/, reply: { rows: [{ value: 7 }] } },
        {
          match: /SET GLOBAL toy_events = '([^']*)'/,
          reply: ({ match }) => {
            events = match?.[1] ?? '';
            return {};
          },
        },
      ],
    },
    getWorkload('seed').durationS,
  );
  const folder = mkdtempSync(path.join(tmpdir(), 'gate-on-server-'));
  folders.push(folder);
  const verdictsFile = path.join(folder, 'verdicts.jsonl');
  const plan: GatePlanFile = {
    headConfig: 'auditbench.config.ts',
    baseConfig: 'auditbench.config.ts',
    baseTree: null,
    baseRef: 'main',
    maxRegressionPp: 5,
    maxCountedRisePp: 2,
    inconclusive: 'fail',
    comparisons,
    verdictsFile,
  };
  const lines: string[] = [];
  const config = loadEnvironment({ AUDITBENCH_WORKLOAD: 'seed', AUDITBENCH_COUNTED: count ? 'on' : 'off' });
  const runs = {
    base: [toyRun({ toy_events: 'CONNECT' })],
    head: [toyRun({ toy_events: 'CONNECT,QUERY', ...headSettings })],
  };
  const session = gateOnServer(config, plan, runs, {
    startServer: async () => server,
    sysbench: runner as SysbenchRunner,
    probe: quietProbe(),
    cpus: 2,
    log: (line) => lines.push(line),
    ...count,
  });
  const verdicts = () =>
    readFileSync(verdictsFile, 'utf8')
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line));
  return { session, server, lines, verdicts };
}

describe('what the gate declares', () => {
  test('one test per comparison, naming both configurations and the allowed rise', () => {
    const { session } = harness(1000);
    expect(session.title).toBe('1 run(s), base beside head on one server, seed workload');
    expect(session.comparisons.map((c) => c.title)).toEqual([
      expect.stringMatching(/: the head costs at most 5 points more than the base$/),
    ]);
  });
});

describe('what a comparison does', () => {
  test('a head clearly slower than its base fails, recorded for the gate command; the plugin is uninstalled', async () => {
    const { session, server, verdicts } = harness(700);
    await session.start();
    const outcome = await session.comparisons[0]?.perform();
    expect(outcome?.failure).toMatch(/head is .* slower than base .*above the allowed 5 points/);
    expect(verdicts()).toEqual([
      expect.objectContaining({ runId: 'toy', verdict: 'fail', design: 'toggle', decidedBy: 'wall clock' }),
    ]);
    const sql = server.lines().join('\n');
    expect(sql).toMatch(/INSTALL PLUGIN toy[\s\S]*UNINSTALL PLUGIN toy/);
    await session.stop();
  });

  test('a head that costs what its base costs passes, with no failure line', async () => {
    const { session, verdicts } = harness(1000);
    await session.start();
    const outcome = await session.comparisons[0]?.perform();
    expect(outcome?.failure).toBeUndefined();
    expect(verdicts()[0]).toMatchObject({ verdict: 'pass' });
  });

  test('the server restarts between comparisons, as between runs', async () => {
    const { session, server } = harness(1000, [compare, compare]);
    await session.start();
    const [first, second] = session.comparisons;
    await first?.perform();
    const before = server.lines().length;
    await second?.perform();
    // The second comparison begins with a restart, before it asks whether its plugin is here.
    expect(server.lines()[before]).toBe('restart');
  });

  test("a setting only the head sets is put back to the server's own value in the base's arm", async () => {
    const { session, server } = harness(1000, [compare], ['toy.so'], { toy_rate: '3' });
    await session.start();
    await session.comparisons[0]?.perform();
    const sets = server.lines().filter((line) => line.startsWith('SQL SET GLOBAL toy_rate'));
    expect(new Set(sets)).toEqual(new Set(['SQL SET GLOBAL toy_rate = 7', "SQL SET GLOBAL toy_rate = '3'"]));
  });

  test('a plugin whose library is not here skips the comparison, with the reason', async () => {
    const { session } = harness(1000, [compare], []);
    await session.start();
    const outcome = await session.comparisons[0]?.perform();
    expect(outcome?.skip).toMatch(/^toy\.so is not in the server's plugin directory/);
  });

  test('a run the head does not declare stops its comparison, naming it', async () => {
    const { session } = harness(1000, [{ ...compare, runId: 'gone' }]);
    await expect(session.start()).rejects.toThrow(
      "The head's configuration does not declare run gone, which the gate selected",
    );
  });
});

// A count that throws, as the counted server did under thread_handling=pool-of-threads (issue 63): the gate ended in
// an Error with a stack. Now the wall clock's verdict and exit code stand, labelled, and the count says why in a line.
const threadZero =
  "The counted warm-up saw sysbench served by thread 0, which the count leaves out as the server's own or the harness's: the server had clients other than the harness";
const throwingCount: Pick<Seams, 'countComparison'> = {
  countComparison: async () => {
    throw new Error(`${threadZero}\n    at checkPolled (src/counted/counted-ab.ts:361:11)`);
  },
};
/** A count that found the head 3.5% more instructions per transaction, [3.1, 3.9]: a counted FAIL at 2 points. */
const risingCount: Pick<Seams, 'countComparison'> = {
  countComparison: async () => ({ figures: { instructions: { pct: 3.5, pctCi95: [3.1, 3.9] } } }) as never,
};
/** What `auditbench gate` ends with: Vitest fails the comparison's test on a failure or an error (exit 1), else 0. */
const exitCodeOf = (outcome: { failure?: string; error?: unknown } | undefined) =>
  outcome?.failure !== undefined || outcome?.error !== undefined ? 1 : 0;
const stackFrame = /^\s+at /m;

describe('a channel that fails gives way to the other', () => {
  test('a count that throws: the wall clock FAILED stands alone, exit 1, one line, no stack', async () => {
    const { session, lines, verdicts } = harness(700, [compare], ['toy.so'], {}, throwingCount);
    await session.start();
    const outcome = await session.comparisons[0]?.perform();
    const [v] = verdicts();
    const line = verdictLine(gateMark(v, 'fail'), v);
    console.log(`gate, a count that throws: exit ${exitCodeOf(outcome)}\n${line}`);
    expect(exitCodeOf(outcome)).toBe(1);
    expect(outcome?.error).toBeUndefined();
    expect(line).toMatch(
      new RegExp(
        `^auditbench gate: FAILED: toy, base \\(toy_events=\\) vs head \\(toy_events=\\): head is 30\\.\\d% slower than base \\(95% CI .*\\), above the allowed 5 points; not counted: ${threadZero}; decided by the wall clock alone \\[toggle, \\d+ pairs`,
      ),
    );
    expect(v).toMatchObject({ verdict: 'fail', decidedBy: 'wall clock', alone: true });
    expect([line, outcome?.failure, ...lines].join('\n')).not.toMatch(stackFrame);
  });

  test('a count that throws beside a passing wall clock: passed, exit 0', async () => {
    const { session, verdicts } = harness(1000, [compare], ['toy.so'], {}, throwingCount);
    await session.start();
    const outcome = await session.comparisons[0]?.perform();
    const [v] = verdicts();
    expect(exitCodeOf(outcome)).toBe(0);
    expect(verdictLine(gateMark(v, 'fail'), v)).toMatch(
      /^auditbench gate: passed: .*; not counted: The counted warm-up saw sysbench served by thread 0, .*; decided by the wall clock alone \[/,
    );
  });

  test('a wall clock that fails: the count decides alone, exit 1 on its FAIL, one line, no stack', async () => {
    const { session, lines, verdicts } = harness(0, [compare], ['toy.so'], {}, risingCount);
    await session.start();
    const outcome = await session.comparisons[0]?.perform();
    const [v] = verdicts();
    const line = verdictLine(gateMark(v, 'fail'), v);
    expect(exitCodeOf(outcome)).toBe(1);
    expect(outcome?.error).toBeUndefined();
    expect(line).toBe(
      'auditbench gate: FAILED: toy, base (toy_events=) vs head (toy_events=): no wall clock: sysbench exited 1: FATAL: unable to connect; counted: head runs +3.50% instructions per transaction (95% CI 3.10 to 3.90), above the allowed 2 points; decided by the counts alone [toggle, 0 pairs]\nauditbench gate: toy measured toggled: SET GLOBAL settings switch while the server runs',
    );
    expect([line, ...lines].join('\n')).not.toMatch(stackFrame);
  });

  test("neither channel: the wall clock's error is the comparison's", async () => {
    const { session } = harness(0, [compare], ['toy.so'], {}, throwingCount);
    await session.start();
    const outcome = await session.comparisons[0]?.perform();
    expect(String(outcome?.error)).toMatch(/sysbench exited 1: FATAL: unable to connect/);
  });
});
