import { execa } from 'execa';
import type { Environment } from '../config/env.ts';
import type { CountedRecord } from '../results/counted-record.ts';
import type { ResolvedRun } from '../runs/runs.ts';
import { addedRates } from '../traffic/added-load.ts';
import type { CountedAdded } from './counted-ab.ts';

/** Why this configuration gets no counted figures (null: it does), decided before any server starts. */
export async function countedUnavailable(
  config: Pick<Environment, 'target' | 'counted'>,
): Promise<string | null> {
  if (config.counted === 'off') return 'AUDITBENCH_COUNTED=off';
  if (config.target !== 'local')
    return `the counted channel runs a local server under valgrind; AUDITBENCH_TARGET is ${config.target}`;
  const found = await execa('valgrind', ['--version'], { reject: false });
  if (found.exitCode !== 0)
    return 'valgrind is not installed (apt-get install valgrind; ./auditbench bench installs it)';
  return null;
}

/** What the run's wall-clock measurement hands the count: its base throughput and its audit events per transaction. */
export interface WallClockFigures {
  /** Throughput without the plugin: turns traffic.added's rates into counts per arm. */
  tps: number | null;
  /** Audit events per plugin-on transaction, all classes (`wallClockEventsPerTx`); null where none were counted. */
  eventsPerTx: number | null;
}

/**
 * The run's traffic.added for its counted arms, scaled by the wall clock's throughput; null when it adds none, or
 * (said in a line) when no wall-clock figure exists to scale it by.
 */
export function countedAdded(
  run: Pick<ResolvedRun, 'id' | 'traffic'>,
  wallClockTps: number | null,
  progress: (message: string) => void,
): CountedAdded | null {
  const rates = addedRates(run.traffic);
  if (rates.length === 0) return null;
  if (!wallClockTps || !Number.isFinite(wallClockTps) || wallClockTps <= 0) {
    progress(
      `${run.id}: counted without traffic.added: no wall-clock throughput to turn its rates into counts`,
    );
    return null;
  }
  return { rates, wallClockTps, failingUser: run.traffic.accounts.application };
}

const signed = (v: number, digits = 1) => `${v >= 0 ? '+' : ''}${v.toFixed(digits)}`;
const interval = (ci: [number, number] | null, digits = 1) =>
  ci ? ` [${ci[0].toFixed(digits)}, ${ci[1].toFixed(digits)}]` : '';

/** One line: what the subject adds per transaction on each counted quantity, or why the arms are not comparable. */
export function countedLine(record: CountedRecord): string {
  if (record.comparable?.refused) return record.comparable.refused;
  const { instructions: ir, writeCalls, logBytes, events } = record.figures;
  const k = (v: number) => `${Math.round(v / 1000).toLocaleString('en-US')}k`;
  return [
    `${signed(ir.pct ?? 0, 2)}% instructions${interval(ir.pctCi95, 2)} (${k(ir.offPerTx)} → ${k(ir.onPerTx)} per transaction)`,
    `${signed(writeCalls.addedPerTx)} write calls${interval(writeCalls.addedCi95)}`,
    `${signed(logBytes.addedPerTx, 0)} log bytes${interval(logBytes.addedCi95, 0)}`,
    // A record sent to syslog leaves through send(), not write(): said where the subject adds such calls.
    ...(record.sendCalls && Math.abs(record.sendCalls.addedPerTx) >= 0.05
      ? [`${signed(record.sendCalls.addedPerTx)} send calls`]
      : []),
    `${signed(events.addedPerTx)} audit events per transaction`,
  ].join(', ');
}
