import { describe, expect, test } from 'vitest';
import { summariseBlock } from './block-interference.ts';
import { type Probe, sampledBlock } from './sampled-block.ts';

// A machine whose other processes use these shares of a core during successive blocks.
function fakeProbe(otherPcts: number[], quietAgain = true): Probe & { waits: number } {
  let block = 0;
  const probe = {
    waits: 0,
    start: async () => {
      const otherPct = otherPcts[block++] ?? 0;
      return {
        stop: async (retries: number) =>
          summariseBlock(
            [
              {
                seconds: 48,
                cpuPct: { measured: 190, self: 1, kernel: 0, other: otherPct },
                stealPct: 0,
                load1: 2,
                otherTicksByComm: new Map(),
              },
            ],
            retries,
          ),
      };
    },
    waitUntilQuiet: async () => {
      probe.waits++;
      return quietAgain;
    },
    nowMs: () => 1_000,
  };
  return probe;
}

describe('sampledBlock', () => {
  const measure = () => {
    let calls = 0;
    const run = async () => ({ pairs: [++calls] });
    return { run, calls: () => calls };
  };

  test.for([
    {
      name: 'warn marks a disturbed block and keeps it',
      policy: 'warn',
      others: [80],
      measured: 1,
      retries: 0,
      other: 80,
    },
    {
      name: 'retry measures a disturbed block again once quiet',
      policy: 'retry',
      others: [80, 3],
      measured: 2,
      retries: 1,
      other: 3,
    },
    {
      name: 'retry gives up after two re-measurements',
      policy: 'retry',
      others: [80, 70, 60, 2],
      measured: 3,
      retries: 2,
      other: 60,
    },
    {
      name: 'retry leaves a quiet block alone',
      policy: 'retry',
      others: [4],
      measured: 1,
      retries: 0,
      other: 4,
    },
  ] as const)('$name', async ({ policy, others, measured, retries, other }) => {
    const m = measure();
    const block = await sampledBlock(m.run, { policy, deadlineMs: 10_000 }, 'local', fakeProbe([...others]));
    expect(m.calls()).toBe(measured);
    expect(block.pairs).toEqual([measured]);
    expect(block.interference?.retries).toBe(retries);
    expect(block.interference?.otherCpuPct).toBe(other);
  });

  test('retry stops when the deadline has passed or the machine never quiets', async () => {
    const late = measure();
    await sampledBlock(late.run, { policy: 'retry', deadlineMs: 500 }, 'local', fakeProbe([80, 1]));
    expect(late.calls()).toBe(1);
    const busy = measure();
    const probe = fakeProbe([80, 1], false);
    await sampledBlock(busy.run, { policy: 'retry', deadlineMs: 10_000 }, 'local', probe);
    expect([busy.calls(), probe.waits]).toEqual([1, 1]);
  });

  test('a block is measured even where /proc cannot be sampled', async () => {
    const m = measure();
    const probe: Probe = { start: async () => null, waitUntilQuiet: async () => true, nowMs: () => 0 };
    expect(await sampledBlock(m.run, undefined, 'local', probe)).toEqual({ pairs: [1] });
  });
});
