import { existsSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, test } from 'vitest';
import { proseLines } from './doc-checks.ts';
import { filesUnder, importsOf, root } from './source-graph.ts';

// What the npm package holds, from package.json's "files" evaluated here: `npm pack --dry-run` takes seconds. The
// rules are npm's for the forms package.json uses: a name or a glob (`*` within a folder, `**` across), a trailing `/`
// for a folder and all under it, `!` to leave out; the last rule that matches a file decides. package.json, README and
// LICENSE always ship.
const rules = (JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8')) as { files: string[] })
  .files;

const globToRegExp = (glob: string) =>
  new RegExp(
    `^${glob
      .replace(/^\.?\/+|\/+$/g, '')
      .split(/(\*\*\/|\*\*|\*)/)
      .map((part) =>
        part === '**/'
          ? '(?:.*/)?'
          : part === '**'
            ? '.*'
            : part === '*'
              ? '[^/]*'
              : part.replace(/[.+?^${}()|[\]\\]/g, '\\$&'),
      )
      .join('')}$`,
  );

/** Whether the package holds `file` (root-relative, '/'), by `files` rules in package.json's order. */
function shippedBy(files: string[]): (file: string) => boolean {
  const compiled = files.map((rule) => ({
    out: rule.startsWith('!'),
    re: globToRegExp(rule.replace(/^!/, '')),
  }));
  return (file) => {
    if (/^(package\.json|readme(\.\w+)?|licen[cs]e(\.\w+)?)$/i.test(file)) return true;
    // A rule that matches a folder takes in, or leaves out, everything under it.
    const parts = file.split('/');
    const selfAndFolders = parts.map((_, i) => parts.slice(0, i + 1).join('/'));
    let shipped = false;
    for (const { out, re } of compiled) if (selfAndFolders.some((p) => re.test(p))) shipped = !out;
    return shipped;
  };
}

const shipped = shippedBy(rules);
const repoFiles = filesUnder('.', () => true)
  .map((f) => f.replace(/^\.\//, ''))
  .filter((f) => !/^(\.git|reports|dist)\//.test(f));

/** Pages for this project's engineers, not for a DBA: each with why it stays out of the package. */
const notForUsers = [
  { doc: 'docs/architecture-notes.md', why: 'the diary of the refactoring passes' },
  { doc: 'docs/test-suites.md', why: 'what each of the project’s own suites shows and costs' },
  { doc: 'ARCHITECTURE.md', why: 'for engineers changing auditbench' },
];

/** Each relative link of a doc's prose: where it points, resolved against the doc's folder, anchor dropped. */
function links(doc: string, text: string): { line: number; target: string; file: string }[] {
  return proseLines(doc, text).flatMap((l) =>
    [...l.text.matchAll(/\]\(([^)\s]+)\)/g)].flatMap((m) => {
      const target = m[1] ?? '';
      if (/^([a-z]+:|#)/i.test(target)) return [];
      const file = path.posix.normalize(path.posix.join(path.posix.dirname(doc), target.replace(/#.*$/, '')));
      return [{ line: l.line, target, file: file.replace(/\/$/, '') }];
    }),
  );
}

/** Why a link from a shipped doc leads nowhere in the package, or null: a file it ships, or a folder with one. */
function linkProblem(file: string, isShipped: (f: string) => boolean, files: string[]): string | null {
  if (!existsSync(path.join(root, file))) return 'no such file';
  if (isShipped(file) || files.some((f) => f.startsWith(`${file}/`) && isShipped(f))) return null;
  return 'left out of the package';
}

function brokenLinks(doc: string, text: string): string[] {
  return links(doc, text).flatMap((l) => {
    const problem = linkProblem(l.file, shipped, repoFiles);
    return problem ? [`${doc}:${l.line}: ${l.target}: ${problem}`] : [];
  });
}

describe('what the package ships', () => {
  const docs = repoFiles.filter((f) => f.endsWith('.md') && shipped(f));

  test('the rules take what npm takes for this package’s forms', () => {
    expect(shipped('src/cli/main.ts')).toBe(true);
    expect(shipped('src/cli/main.test.ts')).toBe(false);
    expect(shipped('suites/runs.suite.ts')).toBe(true);
    expect(shipped('suites/precision/coverage.suite.ts')).toBe(false);
    expect(shipped('dist/src/index.js')).toBe(true);
    expect(shipped('fixtures/sysbench/x.txt')).toBe(false);
    expect(shipped('README.md') && shipped('LICENSE') && shipped('package.json')).toBe(true);
    expect(docs).toEqual(
      expect.arrayContaining(['README.md', 'docs/your-repository.md', 'docs/measurement.md']),
    );
  });

  test.for(notForUsers)('$doc does not ship ($why)', ({ doc }) => {
    expect(existsSync(path.join(root, doc)), doc).toBe(true);
    expect(shipped(doc)).toBe(false);
  });

  test('nothing the package ships imports a file it leaves out', () => {
    const code = repoFiles.filter((f) => /\.(ts|mts)$/.test(f) && shipped(f));
    const missing = code.flatMap((file) =>
      importsOf(file)
        .filter((target) => !shipped(target))
        .map((target) => `${file} imports ${target}, which the package leaves out`),
    );
    expect(code.length).toBeGreaterThan(100);
    expect(missing).toEqual([]);
  });

  test('every link in a shipped doc leads to a file the package holds', () => {
    expect(docs.flatMap((doc) => brokenLinks(doc, readFileSync(path.join(root, doc), 'utf8')))).toEqual([]);
  });

  test('a planted link to a page the package leaves out, or to nothing, is named', () => {
    const text =
      '# Reports\n\nSee [the notes](architecture-notes.md), [gone](gone.md) and [gate](gate.md#the-verdict).\n';
    expect(brokenLinks('docs/reports.md', text)).toEqual([
      'docs/reports.md:3: architecture-notes.md: left out of the package',
      'docs/reports.md:3: gone.md: no such file',
    ]);
  });

  test('a folder link is fine when the package holds a file in it', () => {
    expect(statSync(path.join(root, 'docs/measurements')).isDirectory()).toBe(true);
    expect(linkProblem('docs/measurements', shipped, repoFiles)).toBeNull();
  });
});
