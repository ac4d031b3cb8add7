import { expect, test } from 'vitest';
import { profiles } from '../profiles/index.ts';
import { parseMatrixSelection, planMatrix } from './cell-plan.ts';
import { matrixProfiles } from './expectations.ts';

const crossed = matrixProfiles(profiles);
const targets = [
  { label: 'local server', image: null },
  { label: 'auditbench/mariadb:10.5', image: 'auditbench/mariadb:10.5' },
  { label: 'auditbench/mariadb:10.11', image: 'auditbench/mariadb:10.11' },
  { label: 'auditbench/mysql:9.7', image: 'auditbench/mysql:9.7' },
];
const names = (plan: ReturnType<typeof planMatrix>) =>
  plan.cells.map((c) => `${c.target.label} × ${c.profile.name}`);

test('sample: one working cell per kind of container server, plus the incompatible pair the project claims; none on the local server (the runs suite measures there)', () => {
  const plan = planMatrix(targets, crossed, { kind: 'sample' });
  expect(names(plan)).toEqual([
    'auditbench/mariadb:10.5 × SERVER_AUDIT',
    'auditbench/mysql:9.7 × SERVER_AUDIT',
    'auditbench/mysql:9.7 × general_log',
  ]);
  expect(plan.cells[1]?.why).toMatch(/^a claim: incompatible/);
  expect(plan.crashLoop).toBe(true);
  // One works cell is measured, the last server's; the other checks its lifecycle only.
  expect(plan.cells.map((c) => c.measure)).toEqual([false, true, true]);
  expect(plan.cells[0]?.why).toBe(
    'auditbench/mariadb:10.5 works in the matrix (its lifecycle; the sample measures auditbench/mysql:9.7)',
  );
});

test('all: every plugin on every server, each measured', () => {
  const plan = planMatrix(targets, crossed, { kind: 'all' });
  expect(plan.cells).toHaveLength(targets.length * crossed.length);
  expect(plan.cells.every((c) => c.measure)).toBe(true);
  expect(plan.crashLoop).toBe(true);
});

test.for([2, 3, 5])('%i shards measure every cell and the crash-loop probe exactly once', (count) => {
  const shards = Array.from({ length: count }, (_, i) =>
    planMatrix(targets, crossed, { kind: 'shard', index: i + 1, count }),
  );
  expect(shards.flatMap(names).sort()).toEqual(names(planMatrix(targets, crossed, { kind: 'all' })).sort());
  expect(shards.filter((s) => s.crashLoop)).toHaveLength(1);
});

test.for([
  ['sample', { kind: 'sample' }],
  [' all ', { kind: 'all' }],
  ['2/3', { kind: 'shard', index: 2, count: 3 }],
] as const)('AUDITBENCH_MATRIX=%s', ([raw, selection]) => {
  expect(parseMatrixSelection(raw)).toEqual(selection);
});

test.for(['', 'full', '0/3', '4/3', '1/0', '1/2/3'])('AUDITBENCH_MATRIX=%s is refused in one line', (raw) => {
  expect(() => parseMatrixSelection(raw)).toThrow(
    `must be 'sample', 'all' or a shard of all such as 2/3; got '${raw}'`,
  );
});
