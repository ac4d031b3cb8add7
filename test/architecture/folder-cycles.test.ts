import { expect, test } from 'vitest';
import { filesUnder, importsOf, isTest } from './source-graph.ts';

/** The folder of a file under src/ ('src/config/env.ts' → 'config'), or null outside src/. */
const folderOf = (file: string): string | null => /^src\/([^/]+)\//.exec(file)?.[1] ?? null;

/** Folder → the folders its product files import, each edge with one file pair that makes it. */
function folderGraph(): Map<string, Map<string, string>> {
  const graph = new Map<string, Map<string, string>>();
  for (const file of filesUnder('src', (f) => f.endsWith('.ts') && !isTest(f))) {
    const from = folderOf(file);
    if (!from) continue;
    for (const target of importsOf(file)) {
      const to = folderOf(target);
      if (!to || to === from) continue;
      const edges = graph.get(from) ?? new Map<string, string>();
      if (!edges.has(to)) edges.set(to, `${file} → ${target}`);
      graph.set(from, edges);
    }
  }
  return graph;
}

/** Each pair of folders that import each other, with one file edge each way. */
function mutualImports(graph: Map<string, Map<string, string>>): string[] {
  const pairs: string[] = [];
  for (const [from, edges] of graph) {
    for (const [to, edge] of edges) {
      const back = graph.get(to)?.get(from);
      if (back && from < to) pairs.push(`${from} ↔ ${to}: ${edge}; ${back}`);
    }
  }
  return pairs.sort();
}

/** Pairs allowed to remain: none. A pair that comes back fails the test below, naming the two imports. */
const knownPairs: string[] = [];

// Longer loops (a → b → c → a) remain today; docs/architecture-notes.md lists the worst. This holds the line the
// issue draws: no folder imports one that imports it back.
test('no folder under src/ imports a folder that imports it back', () => {
  const pairs = mutualImports(folderGraph());
  expect(pairs.filter((p) => !knownPairs.some((k) => p.startsWith(`${k}:`)))).toEqual([]);
  expect(
    knownPairs.filter((k) => !pairs.some((p) => p.startsWith(`${k}:`))),
    'gone: drop from knownPairs',
  ).toEqual([]);
});
test('the check sees a pair, and only a pair', () => {
  const graph = new Map([
    ['a', new Map([['b', 'a.ts → b.ts']])],
    [
      'b',
      new Map([
        ['a', 'b.ts → a.ts'],
        ['c', 'b.ts → c.ts'],
      ]),
    ],
    ['c', new Map<string, string>()],
  ]);
  expect(mutualImports(graph)).toEqual(['a ↔ b: a.ts → b.ts; b.ts → a.ts']);
});
