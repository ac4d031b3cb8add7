import { describe, expect, test } from 'vitest';
import { type MemorySample, summariseMemory } from './memory.ts';

const MIB = 1024 * 1024;
const at = (arm: 'off' | 'on', mib: number): MemorySample => ({ arm, bytes: mib * MIB });

describe('summariseMemory', () => {
  test('each arm is the median of its samples, and the change is on minus off', () => {
    const record = summariseMemory(
      [at('off', 140), at('on', 150), at('on', 152), at('off', 141), at('off', 200)],
      'x',
    );
    expect(record).toEqual({
      measured: true,
      offMiB: 141,
      onMiB: 151,
      changeMiB: 10,
      maxMiB: 200,
      samples: 5,
    });
  });

  test('an arm without samples gives the reason instead', () => {
    expect(summariseMemory([at('off', 140)], 'not on this machine')).toEqual({
      measured: false,
      reason: 'not on this machine',
    });
    expect(summariseMemory([], 'not on this machine').measured).toBe(false);
  });
});

describe('memory in a block of whole-arm runs', () => {
  test('is read halfway through each run, under the arm that runs', async () => {
    const { createFakeServer } = await import('../../test/support/fake-server.ts');
    const { sql } = await import('../plugins/steps.ts');
    const { runsBlock } = await import('./blocks.ts');
    const { workloads } = await import('../workload/workloads.ts');
    let arm: 'off' | 'on' = 'off';
    const fake = createFakeServer({
      rules: [
        {
          match: /SET GLOBAL toy = (ON|OFF)/,
          reply: ({ match }) => {
            arm = match?.[1] === 'ON' ? 'on' : 'off';
            return {};
          },
        },
      ],
    });
    // 100 MiB with the toy off, 110 with it on; a run lasts 80 ms of a 0.1 s plan, so halfway is inside it.
    const server = { ...fake, residentBytes: async () => (arm === 'on' ? 110 : 100) * MIB };
    const runner = {
      prepare: async () => {},
      run: async () => {
        await new Promise((resolve) => setTimeout(resolve, 80));
        const result = { tps: 100, transactions: 8, durationS: 0.08, intervals: [] };
        return { ok: true as const, result: result as never };
      },
    };
    const block = await runsBlock(
      {
        server,
        subject: {
          label: 'toy',
          arms: { off: [sql('SET GLOBAL toy = OFF')], on: [sql('SET GLOBAL toy = ON')] },
          log: null,
        },
        job: workloads.smoke,
        plan: { pairs: 2, design: { kind: 'runs' }, durationS: 0.1 },
        cpus: undefined,
        runner,
        probe: { start: async () => null, waitUntilQuiet: async () => true, nowMs: () => 0 },
      },
      () => {},
    );
    const samples = block.runs.flatMap((r) => r.memory ?? []);
    expect(samples.map((s) => s.arm)).toEqual(['off', 'on', 'on', 'off']);
    expect(summariseMemory(samples, 'x')).toMatchObject({ offMiB: 100, onMiB: 110, changeMiB: 10 });
  });
});
