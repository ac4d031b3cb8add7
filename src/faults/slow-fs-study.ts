// The slow log filesystem study (suites/precision/slow-fs.suite.ts, docs/faults.md "A slow log filesystem"): its
// options, the curve it measures and how that curve is told. Pure: no server, no mount.

import { z } from 'zod';
import { type Field, read, wholeNumber } from '../config/env.ts';

export interface SlowFsSettings {
  /** Write delays of the FUSE rows, in ms (to the microsecond), ascending, each once (`delays=`, default 0,1,5,20). */
  delaysMs: number[];
  /** sysbench seconds per arm (`seconds=`, default 20). */
  seconds: number;
  /** Rounds over every row and arm, the order reversed each round so drift falls on all (`rounds=`, default 2). */
  rounds: number;
}

const MAX_DELAY_MS = 1000;

const delayList: Field<number[]> = {
  schema: z
    .string()
    .transform((raw) => raw.split(',').map((ms) => ms.trim()))
    .pipe(
      z
        .array(
          z
            .string()
            .regex(/^\d+(\.\d{1,3})?$/)
            .transform(Number)
            .pipe(z.number().max(MAX_DELAY_MS)),
        )
        .min(1),
    )
    .transform((list) => [...new Set(list)].sort((a, b) => a - b)),
  expects: `must be a comma-separated list of milliseconds from 0 to ${MAX_DELAY_MS}, to three decimals (0.25 is 250 µs)`,
};

const KNOWN = ['delays', 'seconds', 'rounds'] as const;

/** AUDITBENCH_STUDY='delays=0,1,5,20 seconds=20 rounds=2'; a bad word or value throws one line naming it. */
export function slowFsSettings(env: Record<string, string | undefined>): SlowFsSettings {
  const given: Record<string, string> = {};
  for (const word of (env.AUDITBENCH_STUDY ?? '').split(/\s+/).filter(Boolean)) {
    const at = word.indexOf('=');
    const name = at === -1 ? word : word.slice(0, at);
    if (at === -1 || !(KNOWN as readonly string[]).includes(name)) {
      throw new Error(
        `AUDITBENCH_STUDY has '${word}': give name=value words, the names being ${KNOWN.join(', ')}; got '${env.AUDITBENCH_STUDY}'`,
      );
    }
    given[name] = word.slice(at + 1);
  }
  const option = <T>(name: string, field: Field<T>, fallback: T): T => {
    try {
      return read(given, name, field, fallback);
    } catch (error) {
      throw new Error(`AUDITBENCH_STUDY ${error instanceof Error ? error.message : String(error)}`);
    }
  };
  return {
    delaysMs: option('delays', delayList, [0, 1, 5, 20]),
    seconds: option('seconds', wholeNumber(5, 600), 20),
    rounds: option('rounds', wholeNumber(1, 20), 2),
  };
}

/** One filesystem the log can be on: the run's own folder, or the FUSE passthrough at a write delay. */
export type LogFs = { kind: 'plain'; fsType: string } | { kind: 'fuse'; delayMs: number };

export const logFsName = (fs: LogFs): string =>
  fs.kind === 'plain' ? `${fs.fsType} (the datadir)` : `FUSE, ${fs.delayMs} ms a write`;

/** The rows of one round, in the order measured: the plain folder first, then the delays ascending; reversed in even rounds. */
export function roundOrder(
  settings: Pick<SlowFsSettings, 'delaysMs'>,
  fsType: string,
  round: number,
): LogFs[] {
  const rows: LogFs[] = [
    { kind: 'plain', fsType },
    ...settings.delaysMs.map((delayMs): LogFs => ({ kind: 'fuse', delayMs })),
  ];
  return round % 2 === 1 ? rows : rows.reverse();
}

/** Off before on in odd rounds, on before off in even ones (ABBA over two rounds). */
export const armOrder = (round: number): ('off' | 'on')[] =>
  round % 2 === 1 ? ['off', 'on'] : ['on', 'off'];

/** Every arm's TPS on one filesystem, one value per round. */
export interface SlowFsRow {
  fs: LogFs;
  offTps: number[];
  onTps: number[];
}

const mean = (values: number[]): number =>
  values.length === 0 ? Number.NaN : values.reduce((a, b) => a + b, 0) / values.length;

/** Throughput the plugin costs on this filesystem, against logging off on the same one, in percent. */
export const pluginCostPct = (row: SlowFsRow): number =>
  ((mean(row.offTps) - mean(row.onTps)) / mean(row.offTps)) * 100;

/** Where the plugin-on curve over the delays bends, against its own 0 ms throughput. */
export type Bend =
  | { kind: 'flat'; throughMs: number; retainedPct: number }
  | { kind: 'bends'; flatThroughMs: number | null; bentByMs: number; retainedPct: number }
  | { kind: 'no baseline' };

/** Within this much of the 0 ms throughput the curve is still flat (a busy machine moves TPS by a few percent). */
export const FLAT_WITHIN_PCT = 10;

/**
 * The first delay whose plugin-on TPS falls more than FLAT_WITHIN_PCT below the FUSE 0 ms row's: the curve is flat
 * through the delay before it and bent by that one. Without a 0 ms row there is nothing to measure the fall against.
 */
export function bendOf(rows: readonly SlowFsRow[]): Bend {
  const curve = rows
    .flatMap((r) => (r.fs.kind === 'fuse' ? [{ delayMs: r.fs.delayMs, tps: mean(r.onTps) }] : []))
    .sort((a, b) => a.delayMs - b.delayMs);
  const base = curve.find((p) => p.delayMs === 0);
  if (!base || !(base.tps > 0)) return { kind: 'no baseline' };
  let flat = base;
  for (const point of curve) {
    const retainedPct = (point.tps / base.tps) * 100;
    if (retainedPct < 100 - FLAT_WITHIN_PCT) {
      return {
        kind: 'bends',
        flatThroughMs: flat.delayMs,
        bentByMs: point.delayMs,
        retainedPct,
      };
    }
    flat = point;
  }
  return { kind: 'flat', throughMs: flat.delayMs, retainedPct: (flat.tps / base.tps) * 100 };
}

export function describeBend(bend: Bend): string {
  switch (bend.kind) {
    case 'no baseline':
      return 'no FUSE 0 ms row to measure the curve against (add 0 to delays=)';
    case 'flat':
      return `flat: with the plugin on, ${bend.throughMs} ms a write keeps ${bend.retainedPct.toFixed(0)}% of the FUSE 0 ms throughput (within ${FLAT_WITHIN_PCT}%)`;
    case 'bends':
      return `the curve bends between ${bend.flatThroughMs} and ${bend.bentByMs} ms a write: with the plugin on, ${bend.bentByMs} ms keeps ${bend.retainedPct.toFixed(0)}% of the FUSE 0 ms throughput`;
  }
}

const tps = (values: number[]): string =>
  values.length === 0 ? '—' : `${mean(values).toFixed(0)} (${values.map((v) => v.toFixed(0)).join(', ')})`;

/** The study's table: one line per filesystem, TPS as the mean and each round's value, the plugin's cost on it. */
export function formatSlowFsTable(rows: readonly SlowFsRow[]): string[] {
  const base = rows.find((r) => r.fs.kind === 'fuse' && r.fs.delayMs === 0);
  const lines = [
    '| log filesystem | TPS, plugin off | TPS, plugin on | plugin cost | on, vs FUSE 0 ms |',
    '| --- | --- | --- | --- | --- |',
  ];
  for (const row of rows) {
    const versus =
      base && row.fs.kind === 'fuse' ? `${((mean(row.onTps) / mean(base.onTps)) * 100).toFixed(0)}%` : '—';
    const cost = pluginCostPct(row);
    lines.push(
      `| ${logFsName(row.fs)} | ${tps(row.offTps)} | ${tps(row.onTps)} | ${Number.isFinite(cost) ? `${cost.toFixed(1)}%` : '—'} | ${versus} |`,
    );
  }
  return lines;
}
