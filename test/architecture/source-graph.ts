import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';

// The project's root, so the tests read the tree wherever Vitest runs them from.
export const root = path.resolve(import.meta.dirname, '../..');

// Static imports, re-exports and dynamic import('...') of relative paths; type-only imports count too, since a folder
// that names another's types depends on it just the same.
const IMPORT = /(?:\bfrom\s*|\bimport\s*\(?\s*)['"](\.{1,2}\/[^'"]+)['"]/g;

/** Every file under `dir` (relative to the root) whose name passes `keep`, as root-relative paths with '/'. */
export function filesUnder(
  dir: string,
  keep: (file: string) => boolean = (f) => f.endsWith('.ts'),
): string[] {
  const out: string[] = [];
  const walk = (rel: string) => {
    for (const entry of readdirSync(path.join(root, rel), { withFileTypes: true })) {
      const child = `${rel}/${entry.name}`;
      if (entry.isDirectory()) {
        if (entry.name !== 'node_modules') walk(child);
      } else if (keep(child)) out.push(child);
    }
  };
  walk(dir);
  return out.sort();
}

/** The root-relative files one source file imports through relative paths. */
export function importsOf(file: string): string[] {
  const text = readFileSync(path.join(root, file), 'utf8');
  return [...text.matchAll(IMPORT)].map((m) =>
    path.posix.normalize(path.posix.join(path.posix.dirname(file), m[1] as string)),
  );
}

export const isTest = (file: string) => /\.test\.ts$/.test(file);

export const NAME = /\bAUDITBENCH_[A-Z0-9_]*[A-Z0-9]\b/g;
export const namesIn = (file: string) => readFileSync(path.join(root, file), 'utf8').match(NAME) ?? [];

/**
 * Every AUDITBENCH_* variable the product reads (or hands to a process it starts): src/, the suites, scripts,
 * reporters, vitest.config.ts and the `auditbench` launcher.
 */
export function variablesRead(): string[] {
  const code = [
    // The suites are the benchmark itself: their *.suite.ts read settings too.
    ...filesUnder('suites', (f) => /\.(ts|sh|lua|mjs)$/.test(f)),
    ...['src', 'scripts', 'reporters'].flatMap((dir) =>
      filesUnder(dir, (f) => /\.(ts|sh|lua|mjs)$/.test(f) && !isTest(f)),
    ),
  ];
  return [...new Set([...code, 'auditbench', 'vitest.config.ts'].flatMap(namesIn))].sort();
}
