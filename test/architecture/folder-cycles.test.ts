import { readdirSync } from 'node:fs';
import path from 'node:path';
import { expect, test } from 'vitest';
import { filesUnder, importsOf, isTest, root } from './source-graph.ts';

/**
 * src/'s folders from the ground up. A folder imports only folders on lower floors: the ground imports nothing of
 * the project's, and an import sideways or up fails the test below. ARCHITECTURE.md draws the same floors.
 */
const FLOORS: readonly (readonly string[])[] = [
  ['config', 'stats', 'lock', 'markdown', 'clock'],
  ['servers'],
  ['machine', 'workload'],
  ['results'],
  ['plugins', 'projection'],
  ['bench', 'completeness', 'per-event'],
  ['profiles', 'faults', 'matrix'],
  ['runs'],
  ['traffic'],
  ['counted'],
  ['history'],
  ['gate'],
  ['orchestrate'],
  ['cli'],
  // The Vitest plugin and the DBA's test API: they reach the preflight (cli) and the runs' sequence (orchestrate).
  ['vitest'],
];

type Graph = Map<string, Map<string, string>>;

/** The folder of a file under src/ ('src/config/env.ts' → 'config'), or null outside src/ or for src/index.ts. */
const folderOf = (file: string): string | null => /^src\/([^/]+)\//.exec(file)?.[1] ?? null;

/** Folder → the folders its product files import, each edge with one file pair that makes it. */
function folderGraph(): Graph {
  const graph: Graph = new Map();
  for (const file of filesUnder('src', (f) => f.endsWith('.ts') && !isTest(f))) {
    const from = folderOf(file);
    if (!from) continue;
    const edges = graph.get(from) ?? new Map<string, string>();
    graph.set(from, edges);
    for (const target of importsOf(file)) {
      const to = folderOf(target);
      if (to && to !== from && !edges.has(to)) edges.set(to, `${file} → ${target}`);
    }
  }
  return graph;
}

/** The strongly connected sets of more than one folder (Tarjan), each with the edges inside it. */
function folderCycles(graph: Graph): string[] {
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const cycles: string[] = [];
  const visit = (v: string) => {
    index.set(v, index.size);
    low.set(v, index.get(v) as number);
    stack.push(v);
    onStack.add(v);
    for (const w of graph.get(v)?.keys() ?? []) {
      if (!index.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v) as number, low.get(w) as number));
      } else if (onStack.has(w)) low.set(v, Math.min(low.get(v) as number, index.get(w) as number));
    }
    if (low.get(v) !== index.get(v)) return;
    const set: string[] = [];
    for (let w = stack.pop(); w !== undefined; w = w === v ? undefined : stack.pop()) {
      onStack.delete(w);
      set.push(w);
    }
    if (set.length < 2) return;
    const inside = set.flatMap((a) =>
      [...(graph.get(a) ?? [])].filter(([b]) => set.includes(b)).map(([, edge]) => edge),
    );
    cycles.push(`${set.sort().join(', ')}: ${inside.sort().join('; ')}`);
  };
  for (const v of graph.keys()) if (!index.has(v)) visit(v);
  return cycles.sort();
}

/** Imports from a folder to one on its own floor or above, and folders with no floor. */
function arrowsBackUp(graph: Graph, floors: readonly (readonly string[])[]): string[] {
  const floorOf = new Map(floors.flatMap((names, i) => names.map((n) => [n, i] as const)));
  const problems: string[] = [];
  for (const [from, edges] of graph) {
    const here = floorOf.get(from);
    if (here === undefined) {
      problems.push(`src/${from}/ has no floor: add it to FLOORS above everything it imports`);
      continue;
    }
    for (const [to, edge] of edges) {
      const there = floorOf.get(to);
      if (there !== undefined && there >= here)
        problems.push(`${from} (floor ${here}) → ${to} (floor ${there}): ${edge}`);
    }
  }
  return problems.sort();
}

test('every folder under src/ stands on a floor, and no floor names a folder that is gone', () => {
  const folders = readdirSync(path.join(root, 'src'), { withFileTypes: true })
    .filter((e) => e.isDirectory())
    .map((e) => e.name)
    .sort();
  expect([...FLOORS.flat()].sort()).toEqual(folders);
});

test('no cycle among the folders under src/', () => {
  expect(folderCycles(folderGraph())).toEqual([]);
});

test('every import between folders under src/ goes down a floor', () => {
  expect(arrowsBackUp(folderGraph(), FLOORS)).toEqual([]);
});

test('the checks see a loop of three folders, an import sideways or up, and a folder with no floor', () => {
  const graph: Graph = new Map([
    ['a', new Map([['b', 'a.ts → b.ts']])],
    ['b', new Map([['c', 'b.ts → c.ts']])],
    ['c', new Map([['a', 'c.ts → a.ts']])],
    ['d', new Map([['c', 'd.ts → c.ts']])],
    ['e', new Map()],
  ]);
  expect(folderCycles(graph)).toEqual(['a, b, c: a.ts → b.ts; b.ts → c.ts; c.ts → a.ts']);
  expect(arrowsBackUp(graph, [['a'], ['b'], ['c', 'd']])).toEqual([
    'a (floor 0) → b (floor 1): a.ts → b.ts',
    'b (floor 1) → c (floor 2): b.ts → c.ts',
    'd (floor 2) → c (floor 2): d.ts → c.ts',
    'src/e/ has no floor: add it to FLOORS above everything it imports',
  ]);
});
