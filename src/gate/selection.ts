// Which plugin suites and configured runs a change needs: pure, so the rules are unit tested (selection.test.ts).
import path from 'node:path';

/** Changes here can move every measurement: run every suite. Paths are repo-relative, '/'-separated. */
export const HARNESS = ['src/', 'suites/shared/', 'vitest.config.ts', 'package.json', 'package-lock.json'];

/**
 * Inside the harness but not harness: a plugin profile changes the suites that import it (and the configured runs
 * whose hash it enters), not every measurement.
 */
export const PROFILES = 'src/profiles/';

export type Selection =
  | { kind: 'all'; because: string[] }
  | { kind: 'some'; suites: { suite: string; because: string[] }[] }
  | { kind: 'none' };

const IMPORT = /(?:\bfrom\s*|\bimport\s*\(?\s*)['"](\.{1,2}\/[^'"]+)['"]/g;

/** Relative module specifiers a source file imports or re-exports, resolved against its path. */
export function relativeImports(file: string, source: string): string[] {
  const found = new Set<string>();
  for (const match of source.matchAll(IMPORT)) {
    const specifier = match[1];
    if (specifier) found.add(path.posix.join(path.posix.dirname(file), specifier));
  }
  return [...found];
}

/** Every file a suite reaches through relative imports, itself included. */
export function importClosure(root: string, importsOf: Readonly<Record<string, string[]>>): Set<string> {
  const seen = new Set<string>([root]);
  const queue = [root];
  for (let file = queue.pop(); file !== undefined; file = queue.pop()) {
    for (const next of importsOf[file] ?? []) {
      if (!seen.has(next)) {
        seen.add(next);
        queue.push(next);
      }
    }
  }
  return seen;
}

// A unit test beside harness code changes no measurement.
const isHarness = (file: string): boolean =>
  !file.endsWith('.test.ts') &&
  !file.startsWith(PROFILES) &&
  HARNESS.some((h) => (h.endsWith('/') ? file.startsWith(h) : file === h));

/**
 * All suites when harness code changed; otherwise the suites whose file, or a file they import (their plugin
 * profile, and what it imports), changed; none when neither did.
 */
export function selectSuites(input: {
  changed: readonly string[];
  suites: readonly string[];
  importsOf: Readonly<Record<string, string[]>>;
}): Selection {
  const harness = input.changed.filter(isHarness);
  if (harness.length > 0) return { kind: 'all', because: harness };
  const suites = input.suites.flatMap((suite) => {
    const closure = importClosure(suite, input.importsOf);
    const because = input.changed.filter((file) => closure.has(file));
    return because.length > 0 ? [{ suite, because }] : [];
  });
  return suites.length > 0 ? { kind: 'some', suites } : { kind: 'none' };
}

/** What decides whether a run must be measured again: its effective configuration and its limit. */
export interface RunFingerprint {
  hash: string;
  limitPct: number;
  /** The run's traffic (accounts, added load, its script's content), canonical JSON; absent compares as equal. */
  traffic?: string;
}

/**
 * The configuration runs a change needs: new runs, and runs whose settings, profile or option file (the hash),
 * traffic or limit differ from the base's. `base` null: the base has no configuration runs, so every run is new.
 */
export function selectRuns(
  head: Readonly<Record<string, RunFingerprint>>,
  base: Readonly<Record<string, RunFingerprint>> | null,
): { run: string; because: string }[] {
  return Object.entries(head).flatMap(([run, now]) => {
    const before = base?.[run];
    if (!before) return [{ run, because: base ? 'new run' : 'the base has no configuration runs' }];
    if (before.hash !== now.hash) return [{ run, because: 'settings, profile or option file changed' }];
    if ((before.traffic ?? now.traffic) !== (now.traffic ?? before.traffic)) {
      return [{ run, because: 'traffic changed (its accounts, added load or script)' }];
    }
    if (before.limitPct !== now.limitPct) {
      return [{ run, because: `limit changed from ${before.limitPct}% to ${now.limitPct}%` }];
    }
    return [];
  });
}
