import type { Measurement } from '../results/schema.ts';
import { mean } from '../stats/descriptive.ts';
import { pairedOverhead } from '../stats/paired-overhead.ts';
import { isNonEmpty } from '../stats/tps-pair.ts';
import { decideVerdict } from '../stats/verdict.ts';
import type { MeasuredRun, OverheadSample } from './measure-overhead.ts';

export interface SummaryContext {
  limitPct: number;
  serverOptions: Record<string, string>;
  pluginSettings: Record<string, string>;
}

function armMean(runs: MeasuredRun[], arm: MeasuredRun['arm']): number {
  const tps = runs.filter((r) => r.arm === arm).map((r) => r.result.tps);
  if (!isNonEmpty(tps)) throw new Error(`No plugin-${arm} run was measured`);
  return mean(tps);
}

/** Turns measured runs into the figures, interval and verdict that results.json and the summary show. */
export function summariseMeasurement(sample: OverheadSample, context: SummaryContext): Measurement {
  const estimate = pairedOverhead(sample.pairs);
  const verdict = decideVerdict({ estimatePct: estimate.estimatePct, ci95: estimate.ci95, limitPct: context.limitPct });
  const onRuns = sample.runs.filter((r) => r.arm === 'on');
  const logBytes = onRuns.reduce((sum, r) => sum + (r.logBytes ?? 0), 0);
  const onTransactions = onRuns.reduce((sum, r) => sum + r.result.transactions, 0);
  const onSeconds = onRuns.reduce((sum, r) => sum + r.result.durationS, 0);
  return {
    baselineTps: armMean(sample.runs, 'off'),
    pluginTps: armMean(sample.runs, 'on'),
    overheadPct: estimate.estimatePct,
    overheadCi95: estimate.ci95,
    perPairOverheadPct: estimate.perPairOverheadPct,
    pairs: estimate.pairCount,
    limitPct: context.limitPct,
    verdict: verdict.verdict,
    reason: verdict.reason,
    logBytes,
    logBytesPerTxn: onTransactions > 0 ? logBytes / onTransactions : null,
    logMbPerMin: onSeconds > 0 ? (logBytes / 1_000_000 / onSeconds) * 60 : null,
    serverOptions: context.serverOptions,
    pluginSettings: context.pluginSettings,
    wallS: sample.wallS,
    runs: sample.runs.map((r) => ({
      arm: r.arm,
      pair: r.pair,
      tps: r.result.tps,
      qps: r.result.qps,
      latencyAvgMs: r.result.latencyAvgMs,
      latencyP95Ms: r.result.latencyP95Ms,
      logBytes: r.logBytes,
      tpsPerSecond: r.result.intervals.map((i) => i.tps),
    })),
  };
}
