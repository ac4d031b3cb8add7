import { expect, test } from 'vitest';
import { loadEnvironment } from '../src/config/env.ts';
import { recordedReportInput } from '../test/support/report-fixtures.ts';
import { buildSnapshot } from './invocation-snapshot.ts';

test('a run compares with the branch its base ref names and records to <report dir>/history.jsonl', () => {
  const recorded = recordedReportInput();
  const { revision } = recorded;
  // The history finds a run by its id: the measured result and the recorded history name the same one.
  const file = {
    ...recorded.file,
    results: recorded.file.results.map((r, i) => (i === 0 ? { ...r, runId: 'server_audit' } : r)),
  };
  const prior = recorded.prior.map((e) => ({ ...e, runId: 'server_audit' }));
  const config = loadEnvironment({
    AUDITBENCH_REPORT_DIR: '/tmp/r',
    AUDITBENCH_BASE_REF: 'refs/remotes/origin/main',
    AUDITBENCH_MAX_REGRESSION_PP: '5',
  });
  const run = buildSnapshot({
    config,
    policy: { maxRegressionPp: 5, maxCountedRisePp: 1, inconclusive: 'fail' as const },
    file,
    revision,
    invocationId: 'invocation-1',
    prior,
    historyWarnings: [],
  });
  expect(run.historyFile).toBe('/tmp/r/history.jsonl');
  expect(run.baseBranch).toBe('main');
  expect(run.entries.map((e) => [e.invocationId, e.branch, e.title])).toEqual([
    ['invocation-1', 'feature/x', 'MariaDB server_audit'],
    ['invocation-1', 'feature/x', 'Unmeasured <plugin> & co'],
  ]);
  // The latest main run in the recorded history is d92ceb7 (7.0%); the feature-branch run 4a5d2d3 is not a base.
  expect(run.comparisons.map((c) => (c.kind === 'compared' ? c.base.commit.slice(0, 7) : c.kind))).toEqual([
    'd92ceb7',
    'not-measured',
  ]);
});
