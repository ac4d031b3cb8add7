import { readFileSync } from 'node:fs';
import path from 'node:path';
import ts from 'typescript';
import { expect, test } from 'vitest';
import { filesUnder, isTest, root } from './source-graph.ts';

/**
 * Sequences live in src/orchestrate, in functions a reader can hold, and so do the counted channel's primitives in
 * src/counted; suites only declare tests. Parsed with the TypeScript compiler, a function's length runs from its first
 * line to its last, so the closures nested in it count.
 */
const MAX_ORCHESTRATE_FUNCTION_LINES = 120;
/** The folders whose functions are held to MAX_ORCHESTRATE_FUNCTION_LINES. */
const HELD_FOLDERS = ['src/orchestrate', 'src/counted'];
const MAX_SUITE_CALLBACK_LINES = 60;

/** Suites let off the callback limit for now, each with why. */
const ALLOWED_LONG_SUITES: Record<string, string> = {};

/** One function: where it starts, what it is called, and how many lines it spans. */
interface Span {
  where: string;
  name: string;
  lines: number;
}

const lineOf = (source: ts.SourceFile, pos: number) => source.getLineAndCharacterOfPosition(pos).line + 1;

function spanOf(file: string, source: ts.SourceFile, node: ts.Node, name: string): Span {
  const first = lineOf(source, node.getStart(source));
  return { where: `${file}:${first}`, name, lines: lineOf(source, node.getEnd()) - first + 1 };
}

const isFunction = (node: ts.Node): node is ts.FunctionLikeDeclaration =>
  ts.isFunctionDeclaration(node) ||
  ts.isFunctionExpression(node) ||
  ts.isArrowFunction(node) ||
  ts.isMethodDeclaration(node) ||
  ts.isConstructorDeclaration(node) ||
  ts.isGetAccessorDeclaration(node) ||
  ts.isSetAccessorDeclaration(node);

/** A function's name as a reader finds it: its own, the variable or property it is assigned to, or `(anonymous)`. */
function nameOf(node: ts.FunctionLikeDeclaration): string {
  if (node.name && ts.isIdentifier(node.name)) return node.name.text;
  const parent = node.parent;
  if ((ts.isVariableDeclaration(parent) || ts.isPropertyAssignment(parent)) && ts.isIdentifier(parent.name))
    return parent.name.text;
  return '(anonymous)';
}

const parse = (file: string, text: string) =>
  ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true, ts.ScriptKind.TS);

/** Every function in a file, outermost and nested alike. */
function functionSpans(file: string, text: string): Span[] {
  const source = parse(file, text);
  const spans: Span[] = [];
  const visit = (node: ts.Node) => {
    if (isFunction(node)) spans.push(spanOf(file, source, node, nameOf(node)));
    ts.forEachChild(node, visit);
  };
  visit(source);
  return spans;
}

/** `describe`, `test` or `it` under whatever modifiers: `test.skip(…)`, `describe.each(table)(…)`, `test.for(t)(…)`. */
function declaredBy(callee: ts.Expression): string | null {
  let at: ts.Expression = callee;
  while (ts.isPropertyAccessExpression(at) || ts.isCallExpression(at))
    at = ts.isCallExpression(at) ? at.expression : at.expression;
  return ts.isIdentifier(at) && ['describe', 'test', 'it'].includes(at.text) ? at.text : null;
}

/** The callback of every `describe`, `test` and `it` in a file, named by the call and its title. */
function callbackSpans(file: string, text: string): Span[] {
  const source = parse(file, text);
  const spans: Span[] = [];
  const visit = (node: ts.Node) => {
    const by = ts.isCallExpression(node) ? declaredBy(node.expression) : null;
    if (by && ts.isCallExpression(node)) {
      const title = node.arguments[0];
      const named = title && ts.isStringLiteralLike(title) ? title.text : (title?.getText(source) ?? '');
      for (const argument of node.arguments) {
        if (ts.isArrowFunction(argument) || ts.isFunctionExpression(argument))
          spans.push(spanOf(file, source, argument, `${by}(${named.slice(0, 60)})`));
      }
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return spans;
}

const over = (spans: Span[], max: number) =>
  spans.filter((s) => s.lines > max).map((s) => `${s.where} ${s.name}: ${s.lines} lines (at most ${max})`);

const read = (file: string) => readFileSync(path.join(root, file), 'utf8');

test.for(HELD_FOLDERS)(
  `no function in %s is over ${MAX_ORCHESTRATE_FUNCTION_LINES} lines, its closures counted in`,
  (folder) => {
    const files = filesUnder(folder, (f) => f.endsWith('.ts') && !isTest(f));
    expect(files.length).toBeGreaterThan(0);
    const spans = files.flatMap((file) => functionSpans(file, read(file)));
    expect(over(spans, MAX_ORCHESTRATE_FUNCTION_LINES)).toEqual([]);
  },
);

test(`no describe or test callback in suites/ is over ${MAX_SUITE_CALLBACK_LINES} lines`, () => {
  const files = filesUnder('suites', (f) => /\.m?ts$/.test(f)).filter((f) => !(f in ALLOWED_LONG_SUITES));
  const spans = files.flatMap((file) => callbackSpans(file, read(file)));
  expect(spans.length).toBeGreaterThan(0);
  expect(over(spans, MAX_SUITE_CALLBACK_LINES)).toEqual([]);
});

test('the allow-list names only suites that exist', () => {
  const suites = filesUnder('suites');
  for (const file of Object.keys(ALLOWED_LONG_SUITES)) expect(suites).toContain(file);
});

test('the checks see a long nested closure, a long test under a modifier, and count from first line to last', () => {
  const body = (n: number) => Array.from({ length: n }, (_, i) => `    const v${i} = ${i};`).join('\n');
  const product = `export function outer() {\n  const inner = () => {\n${body(5)}\n  };\n  return inner;\n}\n`;
  expect(functionSpans('x.ts', product)).toEqual([
    { where: 'x.ts:1', name: 'outer', lines: 10 },
    { where: 'x.ts:2', name: 'inner', lines: 7 },
  ]);
  expect(over(functionSpans('x.ts', product), 7)).toEqual(['x.ts:1 outer: 10 lines (at most 7)']);
  const suite = [
    "describe('d', () => {",
    `  test.for([1])('t %i', async (n) => {\n${body(3)}\n  });`,
    `  it.skip('s', function () {\n${body(1)}\n  });`,
    '});',
  ].join('\n');
  expect(callbackSpans('s.suite.ts', suite)).toEqual([
    { where: 's.suite.ts:1', name: 'describe(d)', lines: 10 },
    { where: 's.suite.ts:2', name: 'test(t %i)', lines: 5 },
    { where: 's.suite.ts:7', name: 'it(s)', lines: 3 },
  ]);
});
