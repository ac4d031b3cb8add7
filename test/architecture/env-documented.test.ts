import { readFileSync } from 'node:fs';
import path from 'node:path';
import { expect, test } from 'vitest';
import { filesUnder, isTest, namesIn, root, variablesRead } from './source-graph.ts';

function documented(): Set<string> {
  const docs = ['README.md', ...filesUnder('docs', (f) => f.endsWith('.md'))];
  return new Set(docs.flatMap(namesIn));
}

test('every AUDITBENCH_* variable that is read is documented in README.md or docs/', () => {
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
