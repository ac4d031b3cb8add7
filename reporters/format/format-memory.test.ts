import { expect, test } from 'vitest';
import type { PluginResult } from '../../src/results/schema.ts';
import { memoryLine } from './format-memory.ts';

const withMemory = (memory: unknown): PluginResult =>
  ({ measurement: { memory } }) as unknown as PluginResult;

test('the memory line gives both arms, the change with its sign, and the samples', () => {
  const measured = { measured: true, offMiB: 141.2, onMiB: 151.7, changeMiB: 10.5, maxMiB: 160, samples: 16 };
  expect(memoryLine(withMemory(measured))).toBe(
    'server memory (RSS) 141 MiB off, 152 MiB on (+10.5 MiB, median of 16 samples under load)',
  );
  expect(memoryLine(withMemory({ ...measured, onMiB: 141.19, changeMiB: -0.01 }))).toContain('(0.0 MiB');
  expect(memoryLine(withMemory({ ...measured, onMiB: 139.2, changeMiB: -2 }))).toContain('(−2.0 MiB');
});

test('a measurement without memory, or with none read, has no line', () => {
  expect(memoryLine(withMemory(undefined))).toBeNull();
  expect(memoryLine(withMemory({ measured: false, reason: 'not on this machine' }))).toBeNull();
});
