import type { TestModule } from 'vitest/node';
import type { MatrixCellRecord } from '../../src/results/schema.ts';

/** What the closing lines need of one test: where it is, how it ended, and the matrix cell it attached. */
export interface TestOutline {
  file: string;
  name: string;
  state: 'passed' | 'failed' | 'skipped' | 'pending';
  /** The reason given to `context.skip(reason)`; tests left out by a filter have none. */
  skipNote: string | null;
  cell: MatrixCellRecord | null;
}

/** One thing that was asked for and not measured, with the reason. */
export interface Unmeasured {
  kind: 'server' | 'cell' | 'tests';
  what: string;
  reason: string;
  /** How many tests or cells it stands for. */
  count: number;
}

export function outlineTests(testModules: ReadonlyArray<TestModule>): TestOutline[] {
  const outlines: TestOutline[] = [];
  for (const module of testModules) {
    for (const test of module.children.allTests()) {
      const result = test.result();
      outlines.push({
        file: module.relativeModuleId,
        name: test.fullName,
        state: result.state,
        skipNote: result.state === 'skipped' ? (result.note ?? null) : null,
        cell: test.meta().auditbenchMatrix ?? null,
      });
    }
  }
  return outlines;
}

const cellServer = (cell: MatrixCellRecord) =>
  cell.server.image ?? `local ${cell.server.flavor} ${cell.server.version}`;

/**
 * Requested and not measured: servers that could not be built or started (once each, however many cells), matrix
 * cells that ended in an error, and tests skipped with a reason (grouped per file and reason). A test filtered
 * out (no reason) was not requested; a matrix cell 'skipped' because the plugin is not meant for that server is
 * an answer, not a gap.
 */
export function unmeasuredItems(tests: TestOutline[]): Unmeasured[] {
  const items = new Map<string, Unmeasured>();
  const add = (key: string, item: Omit<Unmeasured, 'count'>) => {
    const found = items.get(key);
    if (found) found.count++;
    else items.set(key, { ...item, count: 1 });
  };
  for (const test of tests) {
    const { cell } = test;
    if (cell?.outcome === 'unavailable') {
      add(`server ${cellServer(cell)}`, { kind: 'server', what: cellServer(cell), reason: cell.reason });
    } else if (cell?.outcome === 'error') {
      const what = `${cell.plugin} on ${cellServer(cell)}`;
      add(`cell ${what}`, { kind: 'cell', what, reason: cell.reason });
    } else if (test.state === 'skipped' && test.skipNote) {
      add(`tests ${test.file} ${test.skipNote}`, { kind: 'tests', what: test.file, reason: test.skipNote });
    }
  }
  return [...items.values()];
}

const countNote = (item: Unmeasured) => {
  if (item.kind === 'server') return ` (${item.count} ${item.count === 1 ? 'cell' : 'cells'})`;
  if (item.kind === 'tests') return ` (${item.count} ${item.count === 1 ? 'test' : 'tests'})`;
  return '';
};

/** The closing lines' account of what was asked for and not measured; one line when nothing is missing. */
export function formatUnmeasured(items: Unmeasured[]): string {
  if (items.length === 0) return 'requested and not measured: nothing\n';
  const lines = items.map(
    (item) => `- ${item.kind} ${item.what}${countNote(item)}: ${item.reason.split('\n')[0]}`,
  );
  return `requested and not measured (${items.length}):\n${lines.join('\n')}\n`;
}
