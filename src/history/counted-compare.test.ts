import { expect, test } from 'vitest';
import { sampleEntry } from '../../test/support/sample-entry.ts';
import { sampleIdentity } from '../../test/support/sample-identity.ts';
import { compareCounted, formatCountedComparison } from './counted-compare.ts';
import type { HistoryCounted } from './entry.ts';

const counted = (pct: number, overrides: Partial<HistoryCounted['identity']> = {}): HistoryCounted => ({
  identity: sampleIdentity(overrides),

  instructionsPct: pct,
  instructionsPctCi95: [pct - 0.3, pct + 0.3],
  instructionsAddedPerTx: 186_000,
  writeCallsAddedPerTx: 77,
  logBytesNetAddedPerTx: 2_950,
  eventsPerTx: 38,
});

const base = sampleEntry({ invocationId: 'base', hostname: 'runner-a', counted: counted(6.9) });

test('the same identity on another machine compares: a 2-point rise of added instructions regresses', () => {
  const current = sampleEntry({
    invocationId: 'now',
    branch: 'main',
    hostname: 'runner-b',
    counted: counted(8.9, { cpuFeatures: [] }),
  });
  const [c] = compareCounted([current], [base], { baseBranch: 'main', maxCountedRisePp: 1 });
  expect(c).toMatchObject({ kind: 'compared', verdict: 'regressed', crossMachine: true });
  expect(c?.kind === 'compared' && c.changePp).toBeCloseTo(2, 9);
  // Each run's half-width is 0.3: the change's is √(0.3² + 0.3²).
  expect(c?.kind === 'compared' && c.changeCi95[1] - c.changeCi95[0]).toBeCloseTo(
    2 * Math.hypot(0.3, 0.3),
    9,
  );
  expect(formatCountedComparison(c as never, 1)).toMatch(
    /\+2\.00 pp \[1\.58, 2\.42\], REGRESSED beyond 1 pp$/,
  );
});

test('a rebuilt plugin library or a changed configuration is compared, and named as the cause', () => {
  const current = sampleEntry({
    invocationId: 'now',
    counted: counted(9.9, { pluginSha256: 'b2', configHash: 'c2' }),
  });
  const [c] = compareCounted([current], [base], { baseBranch: 'main', maxCountedRisePp: 1 });
  expect(c).toMatchObject({ kind: 'compared', verdict: 'regressed', causes: ['pluginSha256', 'configHash'] });
  expect(c?.kind === 'compared' && c.culprit).toMatchObject({
    lastGood: { invocationId: 'base' },
    firstBad: { invocationId: 'now' },
  });
  expect(formatCountedComparison(c as never, 1)).toMatch(
    /REGRESSED beyond 1 pp; changed since: pluginSha256, configHash$/,
  );
});

test('another valgrind or counted workload starts a new window; a scaled count of added operations does not', () => {
  const valgrind = sampleEntry({
    invocationId: 'now',
    counted: counted(6.9, { valgrind: 'valgrind-3.24.0' }),
  });
  expect(compareCounted([valgrind], [base], { baseBranch: 'main', maxCountedRisePp: 1 })).toMatchObject([
    { kind: 'no-base' },
  ]);
  const withAdded = (n: number) =>
    `oltp_read_write 2×10000, 2000 transactions per arm, then ${n} connections, seed 1, 1 thread`;
  const was = sampleEntry({ invocationId: 'was', counted: counted(6.9, { workload: withAdded(12) }) });
  const now = sampleEntry({ invocationId: 'now', counted: counted(7.0, { workload: withAdded(9) }) });
  expect(compareCounted([now], [was], { baseBranch: 'main', maxCountedRisePp: 1 })).toMatchObject([
    { kind: 'compared', causes: ['added operations per arm'] },
  ]);
});

test('a run that was not counted is not compared; no limit means not gated', () => {
  const plain = sampleEntry({ invocationId: 'now' });
  expect(compareCounted([plain], [base], { baseBranch: 'main', maxCountedRisePp: 1 })).toEqual([]);
  const same = sampleEntry({ invocationId: 'now', counted: counted(7.0) });
  expect(compareCounted([same], [base], { baseBranch: 'main', maxCountedRisePp: null })).toMatchObject([
    { kind: 'compared', verdict: 'ungated' },
  ]);
});
