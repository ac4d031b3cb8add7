import { expect, test } from 'vitest';
import { filesUnder, namesIn, variablesRead } from './source-graph.ts';

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
