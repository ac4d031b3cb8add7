import { describe, expect, test } from 'vitest';
import { compareWithBase } from '../../src/history/compare.ts';
import { sampleEntry } from '../../test/support/sample-entry.ts';
import { formatComparison, formatHistoryVerdict } from './format-comparison.ts';

const base = sampleEntry({ commit: 'aaaaaaa111', recordedAt: '2026-11-29T09:20:00.000Z' });
const current = sampleEntry({
  invocationId: 'pr',
  branch: 'feature/x',
  commit: 'bbbbbbb222',
  recordedAt: '2026-11-30T01:03:00.000Z',
  overheadPct: 20,
  overheadCi95: [17, 23],
});
const compare = (max: number | null, entry = current) =>
  compareWithBase([entry], [base], { baseBranch: 'main', maxRegressionPp: max });

test('a regression names both runs: overhead, interval, commit, branch and date', () => {
  const [c] = compare(5);
  expect(c && formatComparison(c, 5)).toBe(
    'MariaDB server_audit · mariadb 10.11.19-MariaDB-0+deb12u1 · smoke: ' +
      '20.0% [17.0, 23.0] at bbbbbbb (feature/x, 2026-11-30 01:03 UTC) vs ' +
      '10.0% [8.0, 12.0] at aaaaaaa (main, 2026-11-29 09:20 UTC): ' +
      '+10.0 pp [6.4, 13.6] (same configuration), REGRESSED beyond 5 pp',
  );
});

test.for([
  [{ configHash: 'new000000000' }, 'configuration changed: c0ffee000001 → new000000000'],
  [{ configHash: null }, 'configuration unknown'],
] as const)('says which configuration was compared: %j', ([overrides, text]) => {
  const [c] = compare(null, { ...current, ...overrides });
  expect(c && formatComparison(c, null)).toContain(text);
});

test('no base and no measurement say why there is no comparison', () => {
  const [noBase] = compareWithBase([current], [], { baseBranch: 'main', maxRegressionPp: 5 });
  expect(noBase && formatComparison(noBase, 5)).toContain(
    'no earlier measured run on main with this plugin, server, workload and machine (AMD EPYC ×2, 24 GiB)',
  );
  const [unmeasured] = compare(5, { ...current, overheadPct: null, overheadCi95: null, verdict: 'error' });
  expect(unmeasured && formatComparison(unmeasured, 5)).toContain('not measured (error)');
});

describe('formatHistoryVerdict', () => {
  const options = { inconclusive: 'fail', baseBranch: 'main' } as const;

  test('off without a limit', () => {
    expect(formatHistoryVerdict(compare(null), { ...options, maxRegressionPp: null })).toEqual({
      failed: false,
      line: 'history check: off (set AUDITBENCH_MAX_REGRESSION_PP to fail on a rise in overhead against main)',
    });
  });

  test('fails on a regression, counting regressed and inconclusive', () => {
    expect(formatHistoryVerdict(compare(5), { ...options, maxRegressionPp: 5 })).toEqual({
      failed: true,
      line: 'history check: FAILED against main (allowed rise 5 pp): 1 regressed, 0 inconclusive',
    });
  });

  test('an inconclusive change fails with advice, unless inconclusive: pass', () => {
    const verdict = formatHistoryVerdict(compare(8), { ...options, maxRegressionPp: 8 });
    expect(verdict.failed).toBe(true);
    expect(verdict.line).toContain('0 regressed, 1 inconclusive; inconclusive fails the gate');
    expect(
      formatHistoryVerdict(compare(8), { ...options, inconclusive: 'pass', maxRegressionPp: 8 }).failed,
    ).toBe(false);
  });

  test('passes when every change is surely within the limit', () => {
    expect(formatHistoryVerdict(compare(20), { ...options, maxRegressionPp: 20 })).toEqual({
      failed: false,
      line: 'history check: passed; 1 of 1 result(s) compared with main, none rose more than 20 pp',
    });
  });
});
