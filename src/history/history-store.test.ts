import { mkdir, mkdtemp, readFile, rm, symlink, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, expect, test } from 'vitest';
import { sampleEntry } from '../../test/support/sample-entry.ts';
import { appendHistory, readHistory } from './history-store.ts';

let dir = '';
beforeEach(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), 'auditbench-history-'));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

test('a missing history is empty; appends accumulate', async () => {
  const file = path.join(dir, 'nested', 'history.jsonl');
  expect(await readHistory(file)).toEqual({ entries: [], warnings: [] });
  await appendHistory(file, [sampleEntry({ invocationId: 'a' })]);
  await appendHistory(file, [sampleEntry({ invocationId: 'b' }), sampleEntry({ invocationId: 'c' })]);
  await appendHistory(file, []);
  const { entries, warnings } = await readHistory(file);
  expect(entries.map((e) => e.invocationId)).toEqual(['a', 'b', 'c']);
  expect(warnings).toEqual([]);
});

test('after a torn line, the torn bytes stay as they were and new lines start on their own line', async () => {
  const file = path.join(dir, 'history.jsonl');
  const torn = '{"v":1,"invocationId":"killed","recor';
  await writeFile(file, `${JSON.stringify(sampleEntry({ invocationId: 'a' }))}\n${torn}`);
  await appendHistory(file, [sampleEntry({ invocationId: 'b' })]);
  const text = await readFile(file, 'utf8');
  expect(text).toContain(`\n${torn}\n`);
  const { entries, warnings } = await readHistory(file);
  expect(entries.map((e) => e.invocationId)).toEqual(['a', 'b']);
  expect(warnings).toEqual([`${file} line 2 ignored: not JSON`]);
});

test('a history.jsonl that is a symbolic link is refused, and its target is left as it was', async () => {
  const target = path.join(dir, 'precious');
  await writeFile(target, 'kept\n');
  const file = path.join(dir, 'reports', 'history.jsonl');
  await mkdir(path.dirname(file));
  await symlink(target, file);
  await expect(appendHistory(file, [sampleEntry({ invocationId: 'a' })])).rejects.toThrow(
    `${file} is a symbolic link, and auditbench writes ${file} only where no link it did not make leads`,
  );
  expect(await readFile(target, 'utf8')).toBe('kept\n');
});
