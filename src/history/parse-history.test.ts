import { readFileSync } from 'node:fs';
import { expect, test } from 'vitest';
import { sampleEntry } from '../../test/support/sample-entry.ts';
import { formatHistoryLines, parseHistory } from './parse-history.ts';

const fixture = (name: string) =>
  readFileSync(new URL(`../../fixtures/results/${name}`, import.meta.url), 'utf8');
const recorded = fixture('history-torn.jsonl');

test('a recorded history with a torn last line: every whole line is read, the torn one is a warning', () => {
  const { entries, warnings } = parseHistory(recorded, 'history.jsonl');
  expect(entries.map((e) => e.invocationId)).toEqual(['r1', 'r2', 'r3', 'r4']);
  expect(warnings).toEqual([
    'history.jsonl line 5 is incomplete (an invocation killed while writing?); ignored',
  ]);
  // Written before runs had ids: the invocation was `runId`, and there was no configured run.
  expect(entries.map((e) => e.runId)).toEqual([null, null, null, null]);
});

test("a line in the old names and one in today's read alike: the invocation, then the configured run", () => {
  const { entries, warnings } = parseHistory(fixture('history-names.jsonl'));
  expect(warnings).toEqual([]);
  expect(entries.map((e) => [e.invocationId, e.runId])).toEqual([
    ['306fbec4-5a1e-4f55-9d0a-7c1b2e3f4a50', 'events'],
    ['8d2e61b0-1c4f-4a37-b8e5-0f9a6d3c2b71', 'events'],
  ]);
  expect(entries.every((e) => !('configRun' in e))).toBe(true);
  // Written again (history fetch rewrites history.jsonl), an old line takes today's names.
  const [old] = formatHistoryLines(entries).split('\n');
  expect(JSON.parse(old ?? '')).toMatchObject({
    invocationId: '306fbec4-5a1e-4f55-9d0a-7c1b2e3f4a50',
    runId: 'events',
  });
  expect(old).not.toContain('configRun');
});

test('lines round-trip, each ending in a newline', () => {
  const entries = [sampleEntry(), sampleEntry({ invocationId: 'r2', overheadPct: null, overheadCi95: null })];
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
  [
    'a line with no invocation in either name',
    `${JSON.stringify({ ...sampleEntry(), invocationId: undefined, runId: undefined })}\n`,
    ["h line 1 ignored: field 'invocationId': Invalid input: expected string, received undefined"],
  ],
] as const)('%s gives no entries and these warnings', ([, text, warnings]) => {
  expect(parseHistory(text, 'h')).toEqual({ entries: [], warnings });
});

test('a bad line in the middle hides nothing after it', () => {
  const text = `${formatHistoryLines([sampleEntry({ invocationId: 'a' })])}{oops\n${formatHistoryLines([sampleEntry({ invocationId: 'b' })])}`;
  const { entries, warnings } = parseHistory(text, 'h');
  expect(entries.map((e) => e.invocationId)).toEqual(['a', 'b']);
  expect(warnings).toEqual(['h line 2 ignored: not JSON']);
});

test('a complete last line without its newline still counts', () => {
  const text = formatHistoryLines([sampleEntry()]).trimEnd();
  expect(parseHistory(text).entries).toHaveLength(1);
});
