import { readFileSync } from 'node:fs';
import path from 'node:path';
import { expect, test } from 'vitest';
import { filesUnder, isTest, root } from './source-graph.ts';

const NAME = /\bAUDITBENCH_[A-Z0-9_]*[A-Z0-9]\b/g;
const namesIn = (file: string) => readFileSync(path.join(root, file), 'utf8').match(NAME) ?? [];

/** Every AUDITBENCH_* variable the product reads: src/, the suites, scripts, reporters and the `auditbench` script. */
function variablesRead(): string[] {
  const code = [
    // The suites are the benchmark itself: their *.test.ts read settings too.
    ...filesUnder('suites', (f) => /\.(ts|sh|lua|mjs)$/.test(f)),
    ...['src', 'scripts', 'reporters'].flatMap((dir) =>
      filesUnder(dir, (f) => /\.(ts|sh|lua|mjs)$/.test(f) && !isTest(f)),
    ),
  ];
  return [...new Set([...code, 'auditbench'].flatMap(namesIn))].sort();
}

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
