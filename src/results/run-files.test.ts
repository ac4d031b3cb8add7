import { mkdtemp, readFile, rm, symlink, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, expect, test } from 'vitest';
import { mergeRuns } from './merge-runs.ts';
import { recordRun } from './run-files.ts';
import { type ResultsFile, resultsFileSchema } from './schema.ts';

const recorded = resultsFileSchema.parse(
  JSON.parse(
    await readFile(
      new URL('../../fixtures/results/results-smoke-server-audit.json', import.meta.url),
      'utf8',
    ),
  ),
);
const base = recorded.results[0];
if (!base) throw new Error('the recorded results file has no result');
const result = (title: string, overheadPct: number) => ({ ...base, title, plugin: title, overheadPct });
const run = (generatedAt: string, ...results: ResultsFile['results']): ResultsFile => ({
  generatedAt,
  machine: recorded.machine,
  results,
});

let dir = '';
afterEach(() => rm(dir, { recursive: true, force: true }));

test('a partial run adds to a fuller earlier run; results.json says which runs it shows', async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), 'auditbench-runs-test-'));
  const full = run('2026-11-30T10:00:00.000Z', result('A', 10), result('B', 20), result('C', 30));
  const partial = run('2026-11-30T11:00:00.000Z', result('B', 25));
  await recordRun(dir, 'aaaaaaaa-1111', full, () => {});
  const second = await recordRun(dir, 'bbbbbbbb-2222', partial, () => {});
  const merged = resultsFileSchema.parse(JSON.parse(await readFile(second.results, 'utf8')));
  expect(merged.results.map((r) => [r.title, r.overheadPct, r.measuredInRun])).toEqual([
    ['A', 10, 'aaaaaaaa-1111'],
    ['B', 25, 'bbbbbbbb-2222'],
    ['C', 30, 'aaaaaaaa-1111'],
  ]);
  expect(merged.runs?.map((r) => r.id)).toEqual(['aaaaaaaa-1111', 'bbbbbbbb-2222']);
  const index = JSON.parse(await readFile(path.join(dir, 'runs', 'index.json'), 'utf8'));
  expect(index.runs.map((r: { results: number }) => r.results)).toEqual([3, 1]);
  expect(JSON.parse(await readFile(second.runFile, 'utf8')).results).toHaveLength(1);
});

test('a results.json from before runs/ existed is kept as the first run', async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), 'auditbench-runs-test-'));
  await writeFile(
    path.join(dir, 'results.json'),
    JSON.stringify(run('2026-11-29T09:00:00.000Z', result('A', 10))),
  );
  const { shownRuns } = await recordRun(
    dir,
    'cccccccc',
    run('2026-11-30T09:00:00.000Z', result('B', 5)),
    () => {},
  );
  expect(shownRuns.map((r) => r.id)).toEqual(['earlier-results-json', 'cccccccc']);
});

test('a run superseded everywhere is no longer among the runs shown', () => {
  const entry = (id: string, generatedAt: string) => ({
    id,
    generatedAt,
    file: `${id}.json`,
    results: 1,
    matrixCells: 0,
    titles: [],
  });
  const { shownRuns, file } = mergeRuns([
    { entry: entry('old', '2026-11-30T10:00:00Z'), file: run('2026-11-30T10:00:00Z', result('A', 1)) },
    { entry: entry('new', '2026-11-30T11:00:00Z'), file: run('2026-11-30T11:00:00Z', result('A', 2)) },
  ]);
  expect(shownRuns.map((r) => r.id)).toEqual(['new']);
  expect(file.results.map((r) => r.overheadPct)).toEqual([2]);
});

test('a results.json that is a symbolic link is refused before anything is written through it', async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), 'auditbench-runs-test-'));
  const target = path.join(dir, 'precious.json');
  await writeFile(target, '{"kept":true}\n');
  await symlink(target, path.join(dir, 'results.json'));
  await expect(
    recordRun(dir, 'dddddddd', run('2026-11-30T09:00:00.000Z', result('B', 5)), () => {}),
  ).rejects.toThrow(`${path.join(dir, 'results.json')} is a symbolic link`);
  expect(await readFile(target, 'utf8')).toBe('{"kept":true}\n');
});
