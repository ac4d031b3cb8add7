import { readFileSync } from 'node:fs';
import path from 'node:path';
import ts from 'typescript';
import { expect, test } from 'vitest';
import { filesUnder, isTest, root } from './source-graph.ts';

/**
 * Every deadline, wait and measured span reads the `Clock` (src/clock/clock.ts), so a unit test can hand in one it
 * moves itself. `Date.now()` stays only where a wall-time timestamp is recorded, in the files below, each with why.
 * Parsed with the TypeScript compiler: a `Date.now` in a comment or a string does not count.
 */
const ALLOWED_DATE_NOW: Record<string, string> = {
  'src/clock/clock.ts': 'the real clock itself',
  'src/plugins/lifecycle/index.ts':
    "a marker unique to the run's checks, written in base 36: a name, not a time",
};

/** Where a file calls `Date.now()` (or passes `Date.now` on), as `file:line`. */
function dateNowCalls(file: string, text: string): string[] {
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true, ts.ScriptKind.TS);
  const found: string[] = [];
  const visit = (node: ts.Node) => {
    if (
      ts.isPropertyAccessExpression(node) &&
      ts.isIdentifier(node.expression) &&
      node.expression.text === 'Date' &&
      node.name.text === 'now'
    )
      found.push(`${file}:${source.getLineAndCharacterOfPosition(node.getStart(source)).line + 1}`);
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

const productFiles = () =>
  ['src', 'reporters'].flatMap((dir) => filesUnder(dir, (f) => f.endsWith('.ts') && !isTest(f)));

test('only the allow-listed files call Date.now(); every deadline, wait and measured span takes the Clock', () => {
  const files = productFiles();
  expect(files.length).toBeGreaterThan(0);
  // Only files that name it are parsed: parsing all of src/ takes seconds on a busy machine.
  const calls = files
    .map((file) => ({ file, text: readFileSync(path.join(root, file), 'utf8') }))
    .filter(({ text }) => /\bDate\s*\.\s*now\b/.test(text))
    .flatMap(({ file, text }) => dateNowCalls(file, text));
  const outside = calls
    .filter((where) => !(where.replace(/:\d+$/, '') in ALLOWED_DATE_NOW))
    .map(
      (where) =>
        `${where} calls Date.now(): take the Clock (src/clock/clock.ts), or allow-list the file with why`,
    );
  expect(outside).toEqual([]);
});

test('the allow-list names only files that still call Date.now()', () => {
  const stale = Object.keys(ALLOWED_DATE_NOW).filter(
    (file) => dateNowCalls(file, readFileSync(path.join(root, file), 'utf8')).length === 0,
  );
  expect(stale).toEqual([]);
});

test('the scan finds a call and a passed reference, and skips comments and strings', () => {
  const text = [
    '// Date.now() in a comment',
    "const s = 'Date.now()';",
    'const t = Date.now();',
    'const f = { nowMs: Date.now };',
  ].join('\n');
  expect(dateNowCalls('x.ts', text)).toEqual(['x.ts:3', 'x.ts:4']);
});
