import { readFileSync } from 'node:fs';
import path from 'node:path';
import { expect, test } from 'vitest';
import { filesUnder, isTest, root, variablesRead } from './source-graph.ts';

/** The variables docs/settings.md's tables have a row for: the one page a DBA looks a variable up on. */
function documented(): Set<string> {
  const settings = readFileSync(path.join(root, 'docs', 'settings.md'), 'utf8');
  return new Set([...settings.matchAll(/^\| `(AUDITBENCH_[A-Z0-9_]+)`/gm)].map((m) => m[1] ?? ''));
}

test('every AUDITBENCH_* variable that is read has a row in docs/settings.md', () => {
  const known = documented();
  expect(variablesRead().filter((name) => !known.has(name))).toEqual([]);
});

test('the scan finds the variables env.ts reads', () => {
  expect(variablesRead()).toEqual(expect.arrayContaining(['AUDITBENCH_TARGET', 'AUDITBENCH_WORKLOAD']));
});

test('src/config/env.ts is the only file in src/ that reads process.env, as ARCHITECTURE.md says', () => {
  const readers = filesUnder('src', (f) => f.endsWith('.ts') && !isTest(f)).filter((f) =>
    /\bprocess\.env\b/.test(readFileSync(path.join(root, f), 'utf8').replace(/^\s*(\/\/|\*).*$/gm, '')),
  );
  expect(readers).toEqual(['src/config/env.ts']);
});
