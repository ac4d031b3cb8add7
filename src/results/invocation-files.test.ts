import { mkdtemp, readFile, rm, symlink, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, expect, test } from 'vitest';
import { recordInvocation } from './invocation-files.ts';
import { mergeInvocations } from './merge-invocations.ts';
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
const invocation = (generatedAt: string, ...results: ResultsFile['results']): ResultsFile => ({
  generatedAt,
  machine: recorded.machine,
  results,
});

let dir = '';
afterEach(() => rm(dir, { recursive: true, force: true }));

test('a partial invocation adds to a fuller earlier one; results.json says which invocations it shows', async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), 'auditbench-runs-test-'));
  const full = invocation('2026-11-30T10:00:00.000Z', result('A', 10), result('B', 20), result('C', 30));
  const partial = invocation('2026-11-30T11:00:00.000Z', result('B', 25));
  await recordInvocation(dir, 'aaaaaaaa-1111', full, () => {});
  const second = await recordInvocation(dir, 'bbbbbbbb-2222', partial, () => {});
  const merged = resultsFileSchema.parse(JSON.parse(await readFile(second.results, 'utf8')));
  expect(merged.results.map((r) => [r.title, r.overheadPct, r.invocationId])).toEqual([
    ['A', 10, 'aaaaaaaa-1111'],
    ['B', 25, 'bbbbbbbb-2222'],
    ['C', 30, 'aaaaaaaa-1111'],
  ]);
  expect(merged.invocations?.map((r) => r.id)).toEqual(['aaaaaaaa-1111', 'bbbbbbbb-2222']);
  const index = JSON.parse(await readFile(path.join(dir, 'runs', 'index.json'), 'utf8'));
  expect(index.invocations.map((r: { results: number }) => r.results)).toEqual([3, 1]);
  expect(JSON.parse(await readFile(second.invocationFile, 'utf8')).results).toHaveLength(1);
});

test('a results.json from before runs/ existed is kept as the first invocation', async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), 'auditbench-runs-test-'));
  await writeFile(
    path.join(dir, 'results.json'),
    JSON.stringify(invocation('2026-11-29T09:00:00.000Z', result('A', 10))),
  );
  const { shownInvocations } = await recordInvocation(
    dir,
    'cccccccc',
    invocation('2026-11-30T09:00:00.000Z', result('B', 5)),
    () => {},
  );
  expect(shownInvocations.map((r) => r.id)).toEqual(['earlier-results-json', 'cccccccc']);
});

test('an invocation superseded everywhere is no longer among the invocations shown', () => {
  const entry = (id: string, generatedAt: string) => ({
    id,
    generatedAt,
    file: `${id}.json`,
    results: 1,
    matrixCells: 0,
    titles: [],
  });
  const { shownInvocations, file } = mergeInvocations([
    { entry: entry('old', '2026-11-30T10:00:00Z'), file: invocation('2026-11-30T10:00:00Z', result('A', 1)) },
    { entry: entry('new', '2026-11-30T11:00:00Z'), file: invocation('2026-11-30T11:00:00Z', result('A', 2)) },
  ]);
  expect(shownInvocations.map((r) => r.id)).toEqual(['new']);
  expect(file.results.map((r) => r.overheadPct)).toEqual([2]);
});

test("a report folder written in the old names (runs, measuredInRun) is read and rewritten in today's", async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), 'auditbench-runs-test-'));
  await recordInvocation(
    dir,
    'aaaaaaaa-1111',
    invocation('2026-11-30T10:00:00.000Z', result('A', 10)),
    () => {},
  );
  const indexFile = path.join(dir, 'runs', 'index.json');
  const index = JSON.parse(await readFile(indexFile, 'utf8'));
  await writeFile(indexFile, JSON.stringify({ runs: index.invocations }));
  const shown = { id: 'aaaaaaaa-1111', generatedAt: '2026-11-30T10:00:00.000Z', file: 'runs/a.json' };
  const old = resultsFileSchema.parse({
    ...recorded,
    runs: [shown],
    results: [{ ...base, measuredInRun: shown.id }],
  });
  expect([old.invocations, old.results[0]?.invocationId]).toEqual([[shown], shown.id]);
  expect(old.results[0]).not.toHaveProperty('measuredInRun');
  const second = await recordInvocation(
    dir,
    'bbbbbbbb-2222',
    invocation('2026-11-30T11:00:00.000Z', result('B', 5)),
    () => {},
  );
  expect(second.shownInvocations.map((r) => r.id)).toEqual(['aaaaaaaa-1111', 'bbbbbbbb-2222']);
  expect(Object.keys(JSON.parse(await readFile(indexFile, 'utf8')))).toEqual(['invocations']);
});

test('a results.json that is a symbolic link is refused before anything is written through it', async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), 'auditbench-runs-test-'));
  const target = path.join(dir, 'precious.json');
  await writeFile(target, '{"kept":true}\n');
  await symlink(target, path.join(dir, 'results.json'));
  await expect(
    recordInvocation(dir, 'dddddddd', invocation('2026-11-30T09:00:00.000Z', result('B', 5)), () => {}),
  ).rejects.toThrow(`${path.join(dir, 'results.json')} is a symbolic link`);
  expect(await readFile(target, 'utf8')).toBe('{"kept":true}\n');
});
