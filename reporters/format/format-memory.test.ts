import { expect, test } from 'vitest';
import type { PluginResult } from '../../src/results/schema.ts';
import { sectionMarkdown } from './format-markdown.ts';
import { memoryContent, memoryLine, memoryResults } from './format-memory.ts';
import { sectionText } from './format-terminal.ts';

const withMemory = (memory: unknown, runId = 'server_audit'): PluginResult =>
  ({ runId, title: runId, measurement: { memory } }) as unknown as PluginResult;

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

test('the memory table: a row per result that read it, a line per one that could not, nothing without a reading', () => {
  const measured = { measured: true, offMiB: 141.2, onMiB: 151.7, changeMiB: 10.5, maxMiB: 160, samples: 16 };
  const results = [
    withMemory(measured),
    withMemory({ ...measured, onMiB: 139.2, changeMiB: -2 }, 'ddl-dcl'),
    withMemory({ measured: false, reason: 'no /proc on this target' }, 'external'),
    withMemory(undefined, 'before-memory'),
  ];
  const content = memoryContent(results);
  expect(content.tables?.[0]?.rows).toEqual([
    ['server_audit', '141.2', '151.7', '+10.5', '160.0', '16'],
    ['ddl-dcl', '141.2', '139.2', '−2.0', '160.0', '16'],
  ]);
  expect(content.list).toEqual(['external: not read: no /proc on this target']);
  expect(sectionText(content)).toContain('  server_audit  141.2    151.7   +10.5       160.0     16');
  expect(sectionMarkdown('Server memory', content)).toContain(
    '| ddl-dcl | 141.2 | 139.2 | −2.0 | 160.0 | 16 |',
  );
  expect(memoryResults([withMemory(undefined)])).toEqual([]);
});
