import { mean, sampleSd } from '../stats/descriptive.ts';
import { tQuantile } from '../stats/student-t.ts';

/** The quantities the counted channel reads per arm, each a total over the arm's transactions. */
export const countedQuantities = ['instructions', 'writeCalls', 'writeBytes', 'logBytes', 'events'] as const;
export type CountedQuantity = (typeof countedQuantities)[number];

/** One counted arm: the same fixed transactions, with the subject off (or base) or on (or head). */
export interface CountedArm {
  kind: 'off' | 'on';
  transactions: number;
  totals: Record<CountedQuantity, number>;
}

/** One quantity per transaction, off and on, and what on adds with a 95% interval across pairs. */
export interface CountedFigure {
  offPerTx: number;
  onPerTx: number;
  addedPerTx: number;
  addedCi95: [number, number] | null;
  /** What on adds in percent of off; null when off is 0 (the plugin's log bytes, say). */
  pct: number | null;
  pctCi95: [number, number] | null;
  /** The largest distance of one arm's figure from its kind's mean, in percent of that mean: the arms' spread. */
  spreadPct: { off: number | null; on: number | null };
}

export type CountedFigures = Record<CountedQuantity, CountedFigure>;

const perTx = (arm: CountedArm, q: CountedQuantity) => arm.totals[q] / arm.transactions;

/** Mean and t interval of a few values; no interval for fewer than two. */
function meanCi(values: number[]): { mean: number; ci: [number, number] | null } {
  const [first, ...rest] = values;
  if (first === undefined) return { mean: Number.NaN, ci: null };
  const m = mean([first, ...rest]);
  const sd = sampleSd([first, ...rest]);
  if (sd === null) return { mean: m, ci: null };
  const half = tQuantile(0.975, values.length - 1) * (sd / Math.sqrt(values.length));
  return { mean: m, ci: [m - half, m + half] };
}

function spreadPct(values: number[]): number | null {
  const [first, ...rest] = values;
  if (first === undefined) return null;
  const m = mean([first, ...rest]);
  if (m === 0) return null;
  return Math.max(...values.map((v) => (Math.abs(v - m) / m) * 100));
}

/**
 * Pairs arms in the order they ran (ABBA: off on, on off, …): each pair holds one arm of each kind, so slow drift
 * in the data (sysbench's updates change it arm to arm) cancels across pairs.
 */
export function pairArms<T extends { kind: 'off' | 'on' }>(arms: readonly T[]): [off: T, on: T][] {
  const pairs: [T, T][] = [];
  for (let i = 0; i + 1 < arms.length; i += 2) {
    const a = arms[i] as T;
    const b = arms[i + 1] as T;
    if (a.kind === b.kind) throw new Error(`counted arms ${i} and ${i + 1} are both '${a.kind}': not a pair`);
    pairs.push(a.kind === 'off' ? [a, b] : [b, a]);
  }
  return pairs;
}

/** Each quantity per transaction, and what on adds, from the measured arms (warm-up left out by the caller). */
export function countedFigures(arms: readonly CountedArm[]): CountedFigures {
  const pairs = pairArms(arms);
  if (pairs.length === 0) throw new Error('counted figures need at least one pair of arms');
  const figure = (q: CountedQuantity): CountedFigure => {
    const offs = pairs.map(([off]) => perTx(off, q));
    const ons = pairs.map(([, on]) => perTx(on, q));
    const added = meanCi(pairs.map(([off, on]) => perTx(on, q) - perTx(off, q)));
    const offMean = meanCi(offs).mean;
    const ratios = offs.every((v) => v > 0)
      ? meanCi(pairs.map(([off, on]) => (perTx(on, q) / perTx(off, q) - 1) * 100))
      : null;
    return {
      offPerTx: offMean,
      onPerTx: meanCi(ons).mean,
      addedPerTx: added.mean,
      addedCi95: added.ci,
      pct: ratios?.mean ?? null,
      pctCi95: ratios?.ci ?? null,
      spreadPct: { off: spreadPct(offs), on: spreadPct(ons) },
    };
  };
  return Object.fromEntries(countedQuantities.map((q) => [q, figure(q)])) as CountedFigures;
}

/** The arms' order: `pairs` ABBA pairs (off on, on off, off on, …). */
export function abbaOrder(pairs: number): ('off' | 'on')[] {
  const order: ('off' | 'on')[] = [];
  for (let i = 0; i < pairs; i++)
    order.push(...(i % 2 === 0 ? (['off', 'on'] as const) : (['on', 'off'] as const)));
  return order;
}
