import type { InterferencePolicy } from '../config/interference-policy.ts';
import { interferenceOf } from '../machine/block-interference.ts';
import type { Calibration, Measurement } from '../results/schema.ts';
import { calibrateNoise } from '../stats/calibration.ts';
import { mean } from '../stats/descriptive.ts';
import { pairedOverhead } from '../stats/paired-overhead.ts';
import { isNonEmpty } from '../stats/tps-pair.ts';
import { decideVerdict } from '../stats/verdict.ts';
import type { Design } from '../workload/workload.ts';
import { IDLE_PREFIX, summariseAuditEvents, type TrafficSeen } from './audit-events.ts';
import type { OverheadSample } from './measure-overhead.ts';
import { summariseMemory } from './memory.ts';
import type { Silence } from './silence.ts';
import { summariseLatency } from './summarise-latency.ts';

export interface SummaryContext {
  limitPct: number;
  serverOptions: Record<string, string>;
  pluginSettings: Record<string, string>;
  calibration: Calibration | null;
  /** The run's `interference` policy: how a block measured under interference is judged (default warn). */
  interference?: InterferencePolicy;
  /** The workload's run-to-run spread, carried by the interval (src/stats/paired-overhead.ts). */
  runToRunSdLog?: number;
  /** The accounts the measured traffic used and what it added: decides whether an idle plugin was measured. */
  traffic?: TrafficSeen;
  /** What the added load sent (src/traffic/added-load.ts), recorded beside the figures. */
  addedSent?: Measurement['addedSent'];
  /** The run's limit on the p99 change, in percent; null or absent when it sets none. */
  maxP99IncreasePct?: number | null;
}

function describeDesign(design: Design): string {
  return design.kind === 'toggle'
    ? `toggle every ${design.segmentS} s inside one run${design.aligned ? ' on its report boundaries' : ''}, ABBA`
    : 'separate runs, ABBA';
}

/** Turns measured blocks into the figures, interval and verdict that results.json and the summary show. */
export function summariseMeasurement(sample: OverheadSample, context: SummaryContext): Measurement {
  const { pairs } = sample;
  if (!isNonEmpty(pairs))
    throw new Error('The measurement produced no off/on pair: every interval was dropped');
  const tau = context.runToRunSdLog ?? 0;
  const estimate = pairedOverhead(pairs, { runToRunSdLog: tau });
  const withinRun = tau > 0 ? pairedOverhead(pairs) : estimate;
  const verdict = decideVerdict({
    estimatePct: estimate.estimatePct,
    ci95: estimate.ci95,
    limitPct: context.limitPct,
    ...(context.calibration ? { noiseFloorPct: context.calibration.noiseFloorPct } : {}),
  });
  const runs = sample.blocks.flatMap((b) => b.runs);
  const logBytes = runs.reduce((sum, r) => sum + r.logBytes, 0);
  const onTransactions = runs.reduce((sum, r) => sum + r.onTransactions, 0);
  const onSeconds = runs.reduce((sum, r) => sum + r.onSeconds, 0);
  const interference = interferenceOf(sample.blocks, context.interference);
  const auditEvents = summariseAuditEvents(runs, context.traffic);
  // A plugin that logged none of the traffic priced nothing: its interval is no verdict on the plugin.
  const judged = auditEvents?.idle
    ? { verdict: 'idle' as const, reason: auditEvents.advice ?? IDLE_PREFIX }
    : verdict;
  const latency = summariseLatency(sample.blocks, context.maxP99IncreasePct ?? null);
  const memory = summariseMemory(
    runs.flatMap((r) => r.memory ?? []),
    "this target cannot read the server's resident memory (its process is not on this machine)",
  );
  return {
    latency,
    memory,
    ...(interference && { interference }),
    ...(auditEvents && { auditEvents }),
    ...(context.addedSent && { addedSent: context.addedSent }),
    baselineTps: mean(pairs.map((p) => p.offTps) as [number, ...number[]]),
    pluginTps: mean(pairs.map((p) => p.onTps) as [number, ...number[]]),
    overheadPct: estimate.estimatePct,
    overheadCi95: estimate.ci95,
    withinRunCi95: withinRun.ci95,
    perPairOverheadPct: estimate.perPairOverheadPct,
    pairs: estimate.pairCount,
    trimmedEachSide: estimate.trimmedEachSide,
    runToRunSdLog: tau,
    design: describeDesign(sample.design),
    stoppedBecause: sample.stoppedBecause,
    pinning: sample.pinning,
    noiseFloorPct: context.calibration?.noiseFloorPct ?? null,
    minDetectablePct: context.calibration?.minDetectablePct ?? null,
    limitPct: context.limitPct,
    verdict: judged.verdict,
    reason: judged.reason,
    logBytes,
    logBytesPerTxn: onTransactions > 0 ? logBytes / onTransactions : null,
    logMbPerMin: onSeconds > 0 ? (logBytes / 1_000_000 / onSeconds) * 60 : null,
    serverOptions: context.serverOptions,
    pluginSettings: context.pluginSettings,
    wallS: sample.wallS,
    runs: runs.map((r) => ({
      arm: r.arm,
      schedule: r.schedule,
      tps: r.result.tps,
      qps: r.result.qps,
      latencyAvgMs: r.result.latencyAvgMs,
      latencyP95Ms: r.result.latencyP95Ms,
      logBytes: r.logBytes,
      tpsPerSecond: r.result.intervals.map((i) => i.tps),
    })),
  };
}

/** An idle measurement with the cause asked of the server: its advice, cause and reason say it. */
export function withSilence(measurement: Measurement, silence: Silence): Measurement {
  if (!measurement.auditEvents?.idle) return measurement;
  return {
    ...measurement,
    auditEvents: { ...measurement.auditEvents, advice: silence.advice, cause: silence.cause },
    reason: silence.advice,
  };
}

/** A/A figures: the noise floor for a gate of `gatePairs` pairs, and whether the interval contains 0 as it must. */
export function summariseCalibration(
  sample: OverheadSample,
  gatePairs: number,
  policy: InterferencePolicy = 'warn',
  runToRunSdLog = 0,
): Calibration {
  const c = calibrateNoise(sample.pairs, { gatePairs, runToRunSdLog });
  const interference = interferenceOf(sample.blocks, policy);
  return {
    ...(interference && { interference }),
    latency: summariseLatency(sample.blocks, null),
    pairs: c.pairCount,
    biasPct: c.biasPct,
    biasCi95: c.biasCi95,
    sdLogRatio: c.sdLogRatio,
    noiseFloorPct: c.noiseFloorPct,
    minDetectablePct: c.minimumDetectablePct,
    gatePairs: c.gatePairs,
    containsZero: c.biasCi95[0] <= 0 && c.biasCi95[1] >= 0,
    wallS: sample.wallS,
  };
}
