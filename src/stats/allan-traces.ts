// The core of `npm run bench:noise` (scripts/noise.ts): recorded per-second TPS traces (fixtures/traces/) become
// ln TPS series, one per run, and their pooled Allan curve is printed per condition beside white noise's.
import { type AllanPoint, allanCurve } from './allan.ts';
import type { ArmSwitch } from './segments.ts';
import type { Arm } from './tps-pair.ts';

/** The τ values the curve is printed at, in seconds: the segment lengths worth considering. */
export const noiseTausS = [1, 2, 3, 4, 6, 8, 12] as const;

export interface RecordedTrace {
  name: string;
  condition: string;
  tpsPerSecond: number[];
  /** Absent for a trace recorded with nothing toggled. */
  schedule?: ArmSwitch[];
}

export interface TraceFile {
  recorded?: string;
  workload?: string;
  traces: RecordedTrace[];
}

/**
 * `one-series`: both arms run the same code (a null control, e.g. SQL_ERROR_LOG under OLTP), so a toggled trace is
 * one series. `per-arm`: each arm's mean ln TPS is subtracted from its own seconds, so the plugin's step is not
 * counted as noise.
 */
export type ArmHandling = 'one-series' | 'per-arm';

function armOfSecond(schedule: readonly ArmSwitch[], k: number): Arm {
  // Second k covers (k − 1, k]: it belongs to the arm in force at its middle (a switch lands a few ms in).
  let arm: Arm = schedule[0]?.arm ?? 'off';
  for (const entry of schedule) if (entry.atS <= k - 0.5) arm = entry.arm;
  return arm;
}

/** ln TPS per second of one trace; per-arm centred when asked and the trace was toggled. */
export function logTpsSeries(trace: RecordedTrace, arms: ArmHandling): number[] {
  const logs = trace.tpsPerSecond.map((tps, i) => {
    if (!(tps > 0)) {
      throw new Error(
        `Trace '${trace.name}' has TPS ${tps} at second ${i + 1}: ln TPS needs positive throughput; drop the trace or trim the stall`,
      );
    }
    return Math.log(tps);
  });
  if (arms === 'one-series' || !trace.schedule || trace.schedule.length === 0) return logs;
  const schedule = trace.schedule;
  const armOf = logs.map((_, i) => armOfSecond(schedule, i + 1));
  const armMean = (arm: Arm) => {
    const values = logs.filter((_, i) => armOf[i] === arm);
    return values.length > 0 ? values.reduce((a, b) => a + b, 0) / values.length : 0;
  };
  const centre = { off: armMean('off'), on: armMean('on') };
  return logs.map((value, i) => value - centre[armOf[i] ?? 'off']);
}

/**
 * A trace's ln TPS in stretches between stalls: a second at 0 TPS (the server froze: a checkpoint, the VM) has no
 * logarithm, so it is left out and the series is cut there; each stretch is a series of its own in the pooling.
 */
export function stallFreeStretches(
  trace: RecordedTrace,
  arms: ArmHandling,
): { stretches: number[][]; stalled: number } {
  const stretches: number[][] = [[]];
  let stalled = 0;
  trace.tpsPerSecond.forEach((tps) => {
    if (tps > 0) stretches.at(-1)?.push(tps);
    else {
      stalled++;
      if ((stretches.at(-1)?.length ?? 0) > 0) stretches.push([]);
    }
  });
  const kept = stretches.filter((s) => s.length > 0);
  if (stalled === 0) return { stretches: [logTpsSeries(trace, arms)], stalled };
  if (arms === 'per-arm' && trace.schedule && trace.schedule.length > 0) {
    throw new Error(
      `Trace '${trace.name}' has ${stalled} stalled second(s) and a schedule: --per-arm needs a stall-free trace`,
    );
  }
  return { stretches: kept.map((s) => s.map(Math.log)), stalled };
}

export interface NoiseCurve {
  /** A trace condition (`quiet`, `load`, …) or `all`. */
  condition: string;
  runs: number;
  /** Seconds at 0 TPS left out (stallFreeStretches). */
  stalledSeconds: number;
  points: AllanPoint[];
}

/** One curve per condition (in first-seen order) and, when there are several, one over every run. */
export function noiseCurves(
  traces: readonly RecordedTrace[],
  arms: ArmHandling,
  tausS: readonly number[] = noiseTausS,
): NoiseCurve[] {
  const conditions = [...new Set(traces.map((t) => t.condition))];
  const curve = (condition: string, members: readonly RecordedTrace[]): NoiseCurve => {
    const split = members.map((t) => stallFreeStretches(t, arms));
    return {
      condition,
      runs: members.length,
      stalledSeconds: split.reduce((sum, s) => sum + s.stalled, 0),
      points: allanCurve(
        split.flatMap((s) => s.stretches),
        tausS,
      ),
    };
  };
  const perCondition = conditions.map((c) =>
    curve(
      c,
      traces.filter((t) => t.condition === c),
    ),
  );
  return conditions.length > 1 ? [...perCondition, curve('all', traces)] : perCondition;
}

const pct = (value: number | null) => (value === null ? '–' : `${(100 * value).toFixed(2)}%`);

/** A plain-text table per curve: τ, the Allan deviation of ln TPS (as %), white noise's, and the ratio. */
export function formatNoiseCurves(curves: readonly NoiseCurve[]): string {
  const lines: string[] = [];
  for (const { condition, runs, stalledSeconds, points } of curves) {
    const stalls = stalledSeconds > 0 ? `, ${stalledSeconds} stalled second(s) at 0 TPS left out` : '';
    lines.push(`${condition} (${runs} run${runs === 1 ? '' : 's'}${stalls})`);
    lines.push('  τ (s)  Allan dev.  white noise  ratio  terms');
    for (const p of points) {
      const ratio = p.deviation !== null && p.whiteNoise ? (p.deviation / p.whiteNoise).toFixed(2) : '–';
      lines.push(
        `  ${String(p.tauS).padStart(5)}  ${pct(p.deviation).padStart(10)}  ${pct(p.whiteNoise).padStart(11)}  ${ratio.padStart(5)}  ${String(p.terms).padStart(5)}`,
      );
    }
    lines.push('');
  }
  return lines.join('\n');
}
