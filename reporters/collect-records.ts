import type { TestModule } from 'vitest/node';
import type { MatrixCellRecord } from '../src/results/schema.ts';
import type { ResultRecord } from '../src/results/task-meta.ts';

/** The auditbench records tests attached to task.meta, in run order. */
export function collectRecords(testModules: ReadonlyArray<TestModule>): ResultRecord[] {
  const records: ResultRecord[] = [];
  for (const module of testModules) {
    for (const test of module.children.allTests()) {
      const record = test.meta().auditbench;
      if (record) records.push(record);
    }
  }
  return records;
}

/** The compatibility matrix cells tests attached, in run order. */
export function collectMatrix(testModules: ReadonlyArray<TestModule>): MatrixCellRecord[] {
  const cells: MatrixCellRecord[] = [];
  for (const module of testModules) {
    for (const test of module.children.allTests()) {
      const cell = test.meta().auditbenchMatrix;
      if (cell) cells.push(cell);
    }
  }
  return cells;
}
