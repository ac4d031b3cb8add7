import { describe, expect, test } from 'vitest';
import { threadsSchema } from '../config/concurrency.ts';
import {
  concurrencyPoints,
  defaultThreadPoints,
  isDefaultPoint,
  openLoopLabel,
  openLoopPoint,
  openLoopRate,
  pointLabel,
} from './threads.ts';
import { getWorkload } from './workloads.ts';

const smoke = getWorkload('smoke');

describe('concurrency points', () => {
  test("a run that sets nothing measures today's point on 2 CPUs", () => {
    const points = concurrencyPoints({}, smoke, { cpus: 2, external: false });
    expect(points).toEqual([{ threads: smoke.threads, cores: 'pinned' }]);
    expect(isDefaultPoint(points[0] as never, smoke, false)).toBe(true);
  });

  test('more CPUs add a point at 4 threads per CPU', () => {
    expect(defaultThreadPoints(8, 24)).toEqual([8, 96]);
    expect(defaultThreadPoints(8, 1)).toEqual([8]);
    expect(defaultThreadPoints(8, 512)).toEqual([8, 1024]);
  });

  test("the run's threads and cores win over the workload's", () => {
    expect(concurrencyPoints({ threads: [1, 4], cores: 'all' }, smoke, { cpus: 2, external: false })).toEqual(
      [
        { threads: 1, cores: 'all' },
        { threads: 4, cores: 'all' },
      ],
    );
  });

  test('an external target is never pinned', () => {
    const points = concurrencyPoints({ cores: 'pinned' }, smoke, { cpus: 2, external: true });
    expect(points).toEqual([{ threads: smoke.threads, cores: 'all' }]);
    expect(isDefaultPoint(points[0] as never, smoke, true)).toBe(true);
  });

  test('a point names itself', () => {
    const point = { threads: 4, cores: 'all' as const };
    expect(pointLabel(point)).toBe('t4-all');
    expect(isDefaultPoint(point, smoke, false)).toBe(false);
  });

  test('threads is a count or a list of up to 8 counts', () => {
    expect(threadsSchema.safeParse(4).success).toBe(true);
    expect(threadsSchema.safeParse([1, 4, 16]).success).toBe(true);
    for (const bad of [0, 1.5, [], [1, 2, 3, 4, 5, 6, 7, 8, 9], '4', 2000]) {
      expect(threadsSchema.safeParse(bad).success, JSON.stringify(bad)).toBe(false);
    }
  });
});

describe('the open-loop point', () => {
  const sweep = [
    { threads: 1, cores: 'pinned' as const },
    { threads: 16, cores: 'pinned' as const },
    { threads: 4, cores: 'pinned' as const },
  ];

  test('a sweep gets one at its most threads; one point gets none unless the run asks', () => {
    expect(openLoopPoint(null, sweep)).toEqual({ threads: 16, cores: 'pinned' });
    expect(openLoopPoint(null, [{ threads: 4, cores: 'all' }])).toBeNull();
    expect(openLoopPoint(true, [{ threads: 4, cores: 'all' }])).toEqual({ threads: 4, cores: 'all' });
    expect(openLoopPoint(false, sweep)).toBeNull();
  });

  test('its rate is 70% of the baseline, a whole number of at least 1', () => {
    expect(openLoopRate(500)).toBe(350);
    expect(openLoopRate(101.3)).toBe(71);
    expect(openLoopRate(0.4)).toBe(1);
    expect(openLoopLabel({ threads: 16, cores: 'pinned' })).toBe('t16-pinned-open');
  });
});
