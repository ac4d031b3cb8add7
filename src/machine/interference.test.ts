import { describe, expect, test } from 'vitest';
import { blockInterfered, judgeInterference, summariseBlock } from './block-interference.ts';
import { type Classifier, classify, intervalUse, MEASURED_COMMS, type ProcSnapshot } from './interference.ts';
import type { ProcessTimes } from './proc.ts';
import { auditbenchRoot } from './sampler.ts';

const proc = (pid: number, ppid: number, comm: string, cpuTicks: number, startTicks = 10): ProcessTimes => ({
  pid,
  ppid,
  comm,
  cpuTicks,
  userTicks: cpuTicks,
  startTicks,
});

// A machine as auditbench sees it: bash → vitest main (100) → worker (101) → mariadbd, sysbench, a reaper shell;
// a background load (150) the coverage script started; another engineer's vitest and server; a kernel thread.
const tree = (ticks: Record<number, number>, extra: ProcessTimes[] = []): ProcessTimes[] => [
  proc(1, 0, 'init', 0),
  proc(2, 0, 'kthreadd', 0),
  proc(40, 2, 'kworker/0:1', ticks[40] ?? 0),
  proc(90, 1, 'bash', 0),
  proc(100, 90, 'node', ticks[100] ?? 0),
  proc(101, 100, 'node', ticks[101] ?? 0),
  proc(110, 101, 'mariadbd', ticks[110] ?? 0),
  proc(111, 101, 'sysbench', ticks[111] ?? 0),
  proc(112, 101, 'sh', ticks[112] ?? 0),
  proc(150, 101, 'node', ticks[150] ?? 0),
  proc(200, 1, 'node', ticks[200] ?? 0),
  proc(201, 200, 'mariadbd', ticks[201] ?? 0),
  ...extra,
];
const classifier: Classifier = {
  selfRoot: 100,
  measuredComms: MEASURED_COMMS,
  measuredRoots: [],
  otherRoots: [150],
};
const snapshot = (
  atMs: number,
  processes: ProcessTimes[],
  steal = 0,
  total = 0,
  load1 = 1,
): ProcSnapshot => ({
  atMs,
  cpu: { user: 0, nice: 0, system: 0, idle: 0, iowait: 0, irq: 0, softirq: 0, steal, total },
  load: { load1, load5: 0, load15: 0 },
  processes,
});

describe('classify', () => {
  const byPid = new Map(tree({}).map((p) => [p.pid, p]));
  test.for([
    [110, 'measured'],
    [111, 'measured'],
    [101, 'self'],
    [112, 'self'],
    [150, 'other'],
    [201, 'other'],
    [200, 'other'],
    [40, 'kernel'],
  ] as const)('pid %i is %s', ([pid, kind]) => {
    expect(classify(pid, byPid, classifier)).toBe(kind);
  });

  test("a container's server outside auditbench's tree is measured when named as a root", () => {
    expect(classify(201, byPid, { ...classifier, measuredRoots: [200] })).toBe('measured');
  });

  test('a name measured anywhere (docker-proxy for a container) is measured outside the tree too', () => {
    expect(classify(201, byPid, { ...classifier, measuredAnywhere: ['mariadbd'] })).toBe('measured');
    expect(classify(200, byPid, { ...classifier, measuredAnywhere: ['mariadbd'] })).toBe('other');
  });
});

describe('intervalUse', () => {
  test('splits the CPU between measured, self, kernel and other, in % of a core', () => {
    const before = snapshot(0, tree({ 101: 10, 110: 100, 150: 0, 201: 50 }), 5, 1000);
    const after = snapshot(
      2000,
      tree({ 101: 12, 110: 280, 111: 150, 150: 120, 201: 90, 40: 4 }),
      15,
      1400,
      3.5,
    );
    const use = intervalUse(before, after, classifier);
    // 2 s at 100 ticks/s: 100 ticks are 50% of a core.
    expect(use.cpuPct).toEqual({ measured: 165, self: 1, kernel: 2, other: 80 });
    expect(use.stealPct).toBeCloseTo(2.5, 12);
    expect(use.load1).toBe(3.5);
    expect(Object.fromEntries(use.otherTicksByComm)).toEqual({ node: 120, mariadbd: 40 });
  });

  test('a process started in the interval counts whole; a recycled pid is a new process', () => {
    const before = snapshot(0, tree({}, [proc(300, 1, 'cc1', 500, 10)]), 0, 0);
    const after = snapshot(1000, tree({}, [proc(300, 1, 'make', 30, 99), proc(301, 1, 'ld', 20, 99)]), 0, 0);
    expect(intervalUse(before, after, classifier).cpuPct.other).toBe(50);
  });

  test('snapshots out of order are an error', () => {
    expect(() => intervalUse(snapshot(1000, []), snapshot(1000, []), classifier)).toThrow(
      'snapshots must be in time order, got 0 s between them',
    );
  });
});

const interval = (other: number, seconds = 1, comm = 'stress') => ({
  seconds,
  cpuPct: { measured: 180, self: 1, kernel: 0.5, other },
  stealPct: 0.2,
  load1: 2 + other / 100,
  otherTicksByComm: new Map([[comm, other * seconds]]),
});

describe('summariseBlock and judgeInterference', () => {
  test('a block averages its seconds and names the busiest other processes', () => {
    const block = summariseBlock([interval(10), interval(30, 3, 'cc1')]);
    expect(block).toMatchObject({
      sampledS: 4,
      samples: 2,
      otherCpuPct: 25,
      otherCpuMaxPct: 30,
      selfCpuPct: 1,
    });
    expect(block.topOthers.map((t) => t.comm)).toEqual(['cc1', 'stress']);
    expect(block.topOthers[0]?.cpuPct).toBeCloseTo(22.5, 12);
  });

  test.for([
    { name: 'quiet', others: [2, 4, 3], flagged: false },
    { name: 'above 10% on average', others: [12, 14, 11], flagged: true },
    { name: 'one block above 50%', others: [0, 0, 0, 0, 0, 0, 55], flagged: true },
    { name: 'below both limits', others: [9, 9, 9], flagged: false },
  ])('$name → flagged $flagged', ({ others, flagged }) => {
    const blocks = others.map((o) => summariseBlock([interval(o, 10)]));
    const verdict = judgeInterference(blocks, 'warn');
    expect(verdict.flagged).toBe(flagged);
    expect(verdict.reason.startsWith(flagged ? 'measured under interference' : 'quiet')).toBe(true);
  });

  test('the reason names the figures and the culprit', () => {
    const verdict = judgeInterference([summariseBlock([interval(80, 5, 'stress-mem')])], 'retry');
    expect(verdict.reason).toBe(
      'measured under interference: other processes used 80% of a core on average (worst block 80%: stress-mem 80%), load 2.8, steal 0.2% (limits 10% on average, 50% in any block)',
    );
    expect(blockInterfered(verdict.blocks[0] as never)).toBe(true);
  });
});

describe('auditbenchRoot', () => {
  test.for([
    {
      name: 'vitest worker under its main process, under flock',
      chain: ['node', 'node', 'npm exec vitest', 'flock', 'bash'],
      root: 3,
    },
    { name: 'a lone process', chain: ['node', 'bash'], root: 1 },
  ])('$name', ({ chain, root }) => {
    expect(auditbenchRoot(chain.map((comm, i) => ({ pid: i + 1, comm })))).toBe(root);
  });
});
