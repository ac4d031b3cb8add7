import { type InterferencePolicy, interferenceFailure } from '../config/interference-policy.ts';
import type { Clock } from '../machine/clock.ts';
import type { Probe } from '../machine/sampled-block.ts';
import type { PluginProfile } from '../plugins/profile.ts';
import { runSteps, setGlobals, sql } from '../plugins/steps.ts';
import type { Calibration, Measurement } from '../results/schema.ts';
import type { StartedServer } from '../servers/started-server.ts';
import { halfWidth } from '../stats/paired-overhead.ts';
import type { TrafficSeen } from './audit-events.ts';
import { measureOverhead, type Progress } from './measure-overhead.ts';
import type { Planned } from './measure-plan.ts';
import { explainSilence, silenceFails } from './silence.ts';
import { askWhySilent } from './silence-facts.ts';
import { type MeasuredSubject, pluginSubject, type SysbenchRunner } from './subject.ts';
import { summariseCalibration, summariseMeasurement, withSilence } from './summarise.ts';

/**
 * The one measurement pipeline: the gate measured and its verdict decided here, and the
 * pass/fail policy applied here. src/orchestrate (a run's points, the gate's comparisons, as-application.ts), the
 * matrix and bench:precision call it.
 */

export interface MeasureRunOptions {
  limitPct: number;
  calibration: Calibration | null;
  progress: Progress;
  /** The run's `interference` policy (default warn). */
  interference?: InterferencePolicy;
  /** How sysbench is started: the run's traffic (accounts, added load), or a test's scripted runner. */
  runner?: SysbenchRunner;
  /** The accounts the traffic used and what it added (an idle plugin fails the gate), and what the added load sent. */
  traffic?: TrafficSeen & { sent?: () => Record<string, number> };
  /** The run's maxP99IncreasePct: the gate also fails when the p99 change interval is wholly above it. */
  maxP99IncreasePct?: number | null;
  /** The machine sampler and its clock (src/machine/sampled-block.ts); a test hands in a quiet one. */
  probe?: Probe;
  /** The measurement's clock (src/machine/clock.ts); a test hands in one it moves itself. */
  clock?: Clock;
}

/**
 * Plugin off against plugin on until the verdict is decisive or the budget is spent, summarised with its verdict.
 * `planned` comes from planFor with the profile's arms (pluginSubject(profile).arms).
 */
export async function measureRun(
  server: StartedServer,
  profile: PluginProfile,
  planned: Planned,
  options: MeasureRunOptions,
): Promise<Measurement> {
  // A restart (the lifecycle's, the workload's) resets SET GLOBAL values: measure under the run's settings again.
  await runSteps(server, setGlobals(profile.measureSettings), `Applying ${profile.name} settings`);
  const policy = options.interference ?? 'warn';
  const sentBefore = options.traffic?.sent?.() ?? {};
  const sample = await measureOverhead(server, pluginSubject(profile), planned, {
    limitPct: options.limitPct,
    progress: options.progress,
    interference: policy,
    ...(options.runner ? { runner: options.runner } : {}),
    ...(options.probe ? { probe: options.probe } : {}),
    ...(options.clock ? { clock: options.clock } : {}),
  });
  const summarised = summariseMeasurement(sample, {
    limitPct: options.limitPct,
    serverOptions: planned.job.serverOptions,
    pluginSettings: profile.measureSettings,
    calibration: options.calibration,
    interference: policy,
    runToRunSdLog: planned.plan.runToRunSdLog,
    maxP99IncreasePct: options.maxP99IncreasePct ?? null,
    ...(options.traffic && { traffic: options.traffic }),
    ...(options.traffic?.sent && { addedSent: sentSince(sentBefore, options.traffic.sent()) }),
  });
  const measurement = summarised.auditEvents?.idle
    ? withSilence(
        summarised,
        explainSilence(
          profile,
          await askWhySilent(server, pluginSubject(profile), profile, {
            settings: profile.measureSettings,
            runs: sample.blocks.flatMap((b) => b.runs),
            traffic: options.traffic ?? { accounts: summarised.auditEvents.accounts },
          }),
        ),
      )
    : summarised;
  options.progress(`${measurement.verdict}: ${measurement.reason}`);
  const withinRun = withinRunLine(measurement);
  if (withinRun) options.progress(withinRun);
  options.progress(latencyLine(measurement.latency));
  options.progress(memoryLine(measurement.memory));
  return measurement;
}

/** Where the interval carries τ: what this run's own pairs say, the width an A/B inside one run would have. */
export function withinRunLine(m: Measurement): string | null {
  if (!(m.runToRunSdLog > 0) || !m.withinRunCi95 || !m.overheadCi95) return null;
  return `within this run: ${m.overheadPct.toFixed(1)}% [${m.withinRunCi95.map((v) => v.toFixed(1)).join(', ')}], ±${halfWidth(m.withinRunCi95).toFixed(2)} pp; the verdict's ±${halfWidth(m.overheadCi95).toFixed(2)} pp adds the run-to-run spread τ = ${m.runToRunSdLog}`;
}

function latencyLine(latency: Measurement['latency']): string {
  if (!latency?.measured) return `latency not measured: ${latency?.reason ?? 'no record'}`;
  const shown = (name: 'p95' | 'p99') => {
    const q = latency[name];
    const ci = q.changeCi95Pct ? ` [${q.changeCi95Pct.map((v) => v.toFixed(1)).join(', ')}]` : '';
    return `${name} ${q.offMs.toFixed(2)} → ${q.onMs.toFixed(2)} ms, ${q.changePct >= 0 ? '+' : ''}${q.changePct.toFixed(1)}%${ci}`;
  };
  return `latency over ${latency.pairs} pairs: ${shown('p95')}; ${shown('p99')}`;
}

function memoryLine(memory: Measurement['memory']): string {
  if (!memory?.measured) return `server memory not read: ${memory?.reason ?? 'no record'}`;
  return `server memory (RSS, median under load): ${memory.offMiB.toFixed(1)} MiB off, ${memory.onMiB.toFixed(1)} MiB on`;
}

const sentSince = (before: Record<string, number>, after: Record<string, number>) =>
  Object.fromEntries(Object.entries(after).map(([kind, n]) => [kind, n - (before[kind] ?? 0)]));

/**
 * Both arms run the same no-op statement, so the A/A design needs no plugin: one calibration serves every run on
 * the same server, workload and machine.
 */
const neutral: MeasuredSubject = { label: 'A/A', arms: { off: [sql('DO 0')], on: [sql('DO 0')] }, log: null };

/** How an A/A is measured: where its lines go, the interference policy, and the seams a test replaces. */
export interface CalibrationOptions {
  progress: Progress;
  /** The run's `interference` policy (default warn). */
  interference?: InterferencePolicy;
  /** How sysbench is started: the run's traffic, or a test's scripted runner. */
  runner?: SysbenchRunner;
  /** The machine sampler and its clock; a test hands in a quiet one. */
  probe?: Probe;
  /** The measurement's clock; a test hands in one it moves itself. */
  clock?: Clock;
}

/** One A/A measurement of one block: its interval should contain 0. */
export async function measureCalibration(
  server: StartedServer,
  planned: Planned,
  options: CalibrationOptions,
): Promise<Calibration> {
  const interference = options.interference ?? 'warn';
  const sample = await measureOverhead(server, neutral, planned, {
    limitPct: null,
    progress: options.progress,
    interference,
    ...(options.runner ? { runner: options.runner } : {}),
    ...(options.probe ? { probe: options.probe } : {}),
    ...(options.clock ? { clock: options.clock } : {}),
  });
  return summariseCalibration(sample, planned.plan.pairs, interference, planned.plan.runToRunSdLog);
}

/**
 * The A/A calibration a gate is judged against. A 95% interval misses 0 one time in 20 by chance, so a miss is
 * measured once more and only a second miss stands.
 */
export async function calibrate(
  server: StartedServer,
  planned: Planned,
  options: CalibrationOptions,
): Promise<Calibration> {
  const { progress } = options;
  let calibration: Calibration | undefined;
  for (let attempt = 1; attempt <= 2; attempt++) {
    calibration = await measureCalibration(server, planned, options);
    const ci = calibration.biasCi95.map((v) => v.toFixed(2)).join(', ');
    progress(
      `A/A ${attempt}: ${calibration.biasPct.toFixed(2)}% [${ci}], noise floor ±${calibration.noiseFloorPct.toFixed(2)}%, detectable ≥${calibration.minDetectablePct.toFixed(2)}%`,
    );
    progress(`A/A ${attempt} ${latencyLine(calibration.latency)}`);
    if (calibration.containsZero) break;
  }
  return calibration as Calibration;
}

/** The settings that decide what a verdict does to the gate. */
export interface LimitPolicy {
  inconclusive: 'fail' | 'pass';
  interference: InterferencePolicy;
  /**
   * What a measurement of an idle plugin (none of the traffic logged) does: fail unless 'pass' (a run's `idle`); a
   * plugin that could not write its log fails either way.
   */
  idle?: 'fail' | 'pass';
}

/** What the gate says about a measurement: null when it passes, else the one-line failure message. */
export function limitFailure(measurement: Measurement, policy: LimitPolicy, where: string): string | null {
  const disturbed = interferenceFailure(measurement.interference, policy.interference);
  if (disturbed) return `${where}: ${disturbed}`;
  const events = measurement.auditEvents;
  const idle = measurement.verdict === 'idle' || events?.idle === true;
  if (idle && silenceFails(events?.cause, policy.idle)) {
    const accepts =
      events?.cause === 'log-unwritable'
        ? 'a plugin that cannot write its log fails the run, whatever idle: says'
        : "an idle plugin fails the run; idle: 'pass' in auditbench.config.ts accepts it";
    return `${where}: ${events?.advice ?? measurement.reason} (${accepts})`;
  }
  if (measurement.latency?.measured && measurement.latency.p99LimitFailed) {
    return `${where}: ${measurement.latency.reason}`;
  }
  if (measurement.verdict === 'pass' || idle) return null;
  if (measurement.verdict === 'inconclusive' && policy.inconclusive === 'pass') return null;
  const advice =
    measurement.verdict === 'inconclusive'
      ? " (inconclusive fails the run: run a longer workload, e.g. AUDITBENCH_WORKLOAD=standard, or set inconclusive: 'pass' in auditbench.config.ts)"
      : '';
  return `${where}: ${measurement.reason}${advice}`;
}
