import { describe, test } from 'vitest';
import { parseMatrixSelection, planMatrix } from '../../src/matrix/cell-plan.ts';
import { matrixProfiles } from '../../src/matrix/expectations.ts';
import { profiles } from '../../src/profiles/index.ts';
import { fakeCell, fakeTargets } from './fake-matrix.ts';

// A stand-in for suites/matrix.suite.ts, for the report-merge check: one file, the cells AUDITBENCH_MATRIX selects
// (a shard of all), each test attaching its cell to task.meta as the matrix does, with no server.
const shard = process.env.AUDITBENCH_MATRIX ?? 'all';
const plan = planMatrix(fakeTargets, matrixProfiles(profiles), parseMatrixSelection(shard));

describe('plugin × server compatibility matrix', () => {
  for (const target of fakeTargets) {
    const cells = plan.cells.filter((cell) => cell.target === target);
    if (cells.length === 0) continue;
    describe(target.label, () => {
      for (const { profile } of cells) {
        test(profile.title, (context) => {
          context.task.meta.auditbenchMatrix = fakeCell(profile.title, target.image, shard);
        });
      }
    });
  }
});
