import { readFileSync } from 'node:fs';
import { expect, test } from 'vitest';
import { sampleEntry } from '../../test/support/sample-entry.ts';
import { formatHistoryLines, parseHistory } from './parse-history.ts';

const recorded = readFileSync(new URL('../../fixtures/results/history-torn.jsonl', import.meta.url), 'utf8');

test('a recorded history with a torn last line: every whole line is read, the torn one is a warning', () => {
  const { entries, warnings } = parseHistory(recorded, 'history.jsonl');
  expect(entries.map((e) => e.runId)).toEqual(['r1', 'r2', 'r3', 'r4']);
  expect(warnings).toEqual(['history.jsonl line 5 is incomplete (a run killed while writing?); ignored']);
});

test('lines round-trip, each ending in a newline', () => {
  const entries = [sampleEntry(), sampleEntry({ runId: 'r2', overheadPct: null, overheadCi95: null })];
  const text = formatHistoryLines(entries);
  expect(text.endsWith('}\n')).toBe(true);
  expect(text.split('\n')).toHaveLength(3);
  expect(parseHistory(text)).toEqual({ entries, warnings: [] });
});

test.for([
  ['an empty file', '', []],
  ['blank lines', '\n\n', []],
  ['a line that is not JSON', 'garbage\n', ['h line 1 ignored: not JSON']],
  ['a line from a newer format', '{"v":2}\n', ['h line 1 ignored: format v2 is from a newer auditbench']],
  [
    'a line missing a field',
    `${JSON.stringify({ ...sampleEntry(), commit: undefined })}\n`,
    ["h line 1 ignored: field 'commit': Invalid input: expected string, received undefined"],
  ],
] as const)('%s gives no entries and these warnings', ([, text, warnings]) => {
  expect(parseHistory(text, 'h')).toEqual({ entries: [], warnings });
});

test('a bad line in the middle hides nothing after it', () => {
  const text = `${formatHistoryLines([sampleEntry({ runId: 'a' })])}{oops\n${formatHistoryLines([sampleEntry({ runId: 'b' })])}`;
  const { entries, warnings } = parseHistory(text, 'h');
  expect(entries.map((e) => e.runId)).toEqual(['a', 'b']);
  expect(warnings).toEqual(['h line 2 ignored: not JSON']);
});

test('a complete last line without its newline still counts', () => {
  const text = formatHistoryLines([sampleEntry()]).trimEnd();
  expect(parseHistory(text).entries).toHaveLength(1);
});
