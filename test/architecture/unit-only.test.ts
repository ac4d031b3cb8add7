import { readFileSync } from 'node:fs';
import path from 'node:path';
import { expect, test } from 'vitest';
import { filesUnder, importsOf, isTest, root } from './source-graph.ts';

// Files nothing imports because something runs them: the package's entry, the CLI, and what a script starts by path.
const entries = new Set(['src/index.ts', 'src/cli/main.ts']);

/**
 * The product's files: the suites (the benchmark itself, *.suite.ts) and everything else but unit tests and
 * test support, in every folder that ships or runs.
 */
const productFiles = () => [
  ...filesUnder('suites'),
  ...['src', 'reporters', 'scripts', 'fixtures'].flatMap((dir) =>
    filesUnder(dir, (f) => f.endsWith('.ts') && !isTest(f)),
  ),
];

/** Files a script or the `auditbench` script names by path (node --import tsx src/…, new URL('…')). */
function namedByPath(): Set<string> {
  const texts = ['auditbench', 'vitest.config.ts', 'package.json', ...productFiles()].map((f) =>
    readFileSync(path.join(root, f), 'utf8'),
  );
  return new Set(texts.flatMap((t) => t.match(/src\/[\w/.-]+\.ts/g) ?? []));
}

test('every file under src/ is used by the product, not only by unit tests', () => {
  const used = new Set(productFiles().flatMap(importsOf));
  const named = namedByPath();
  const unused = filesUnder('src', (f) => f.endsWith('.ts') && !isTest(f) && !f.endsWith('.d.ts')).filter(
    (f) => !used.has(f) && !entries.has(f) && !named.has(f),
  );
  expect(unused).toEqual([]);
});
