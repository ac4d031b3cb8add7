import type { CountedRecord, MachineRates, Prediction } from '../results/counted-record.ts';

/**
 * The machine calibration: counts turned into the wall-clock overhead they would cause on this machine, and how much
 * of the measured overhead they leave unexplained. Pure arithmetic; the readings come from src/counted/machine-rates.ts.
 *
 * With the server's core saturated, throughput is the inverse of the server's CPU seconds per transaction, so a
 * plugin that adds Δ seconds to each transaction's c costs Δ ÷ (c + Δ) of the throughput. Δ is what the counts add,
 * priced at this machine's rates: counted instructions at the connection threads' user CPU per counted instruction
 * (plugin off), and added write() calls at the kernel time one write of the arm's record size takes.
 */

/** The most of the server's core that may sit idle, plugin off, for its throughput to be set by its CPU. */
export const MAX_IDLE_SHARE = 0.1;
/** Other processes' share of the server's core above which the prediction says the core was shared. */
const SHARED_ABOVE = 0.1;

const pct = (v: number) => `${v.toFixed(1)}%`;
const interval = (ci: [number, number] | null) => (ci ? ` [${ci[0].toFixed(1)}, ${ci[1].toFixed(1)}]` : '');

/** Why a run's counts are not turned into a wall-clock figure, or null when they can be. */
export function notPredictedBecause(rates: MachineRates, countedOffPerTx: number): string | null {
  if (rates.failed) return rates.failed;
  if (rates.coresAvailable !== 1)
    return `the server was not pinned to a core of its own (cores: all), so no one core's saturation sets its pace`;
  if (rates.idleShare > MAX_IDLE_SHARE)
    return `the server's core sat idle ${pct(100 * rates.idleShare)} of the plugin-off run (the server used ${rates.coresUsed.toFixed(2)} of it): waits, not work, set its pace`;
  if (!(rates.transactions > 0) || !(rates.connectionUserPerTx > 0) || !(countedOffPerTx > 0))
    return 'the plugin-off run gave no transactions or no connection-thread CPU to price an instruction by';
  return null;
}

/** Seconds one counted instruction takes here: the connection threads' user CPU per counted instruction. */
export const secondsPerInstruction = (rates: MachineRates, countedOffPerTx: number): number =>
  rates.connectionUserPerTx / countedOffPerTx;

/** The throughput loss, in percent, of adding `addedS` CPU seconds to a transaction that took `baseS`. */
export const lossPct = (baseS: number, addedS: number): number => (100 * addedS) / (baseS + addedS);

/**
 * The counted figures priced at this machine's rates, beside the measured overhead. The interval comes from the
 * counted intervals of the added instructions and write calls; the rates are taken as exact (one reading each).
 */
export function predict(input: {
  rates: MachineRates;
  figures: CountedRecord['figures'];
  measured: { pct: number; ci95: [number, number] | null } | null;
}): Prediction {
  const { rates, figures, measured } = input;
  const ir = figures.instructions;
  const writes = figures.writeCalls;
  const base = {
    rates,
    secondsPerInstruction: null,
    addedS: null,
    predictedPct: null,
    predictedCi95: null,
    measuredPct: measured?.pct ?? null,
    measuredCi95: measured?.ci95 ?? null,
    unexplainedPp: null,
    unexplainedCi95: null,
  };
  const why = notPredictedBecause(rates, ir.offPerTx);
  if (why)
    return {
      ...base,
      judgement: 'not predicted',
      line: `counted work not turned into a wall-clock figure: ${why}`,
    };
  const perInstruction = secondsPerInstruction(rates, ir.offPerTx);
  const perWrite = rates.secondsPerWrite ?? 0;
  const added = (instructions: number, writeCalls: number) =>
    lossPct(
      rates.serverCpuPerTx,
      Math.max(0, instructions * perInstruction + Math.max(0, writeCalls) * perWrite),
    );
  const predictedPct = added(ir.addedPerTx, writes.addedPerTx);
  const predictedCi95: [number, number] | null =
    ir.addedCi95 || writes.addedCi95
      ? [
          added(ir.addedCi95?.[0] ?? ir.addedPerTx, writes.addedCi95?.[0] ?? writes.addedPerTx),
          added(ir.addedCi95?.[1] ?? ir.addedPerTx, writes.addedCi95?.[1] ?? writes.addedPerTx),
        ]
      : null;
  const predicted = {
    ...base,
    secondsPerInstruction: perInstruction,
    addedS: {
      instructions: ir.addedPerTx * perInstruction,
      writes: Math.max(0, writes.addedPerTx) * perWrite,
    },
    predictedPct,
    predictedCi95,
  };
  const others = 1 - rates.idleShare - rates.coresUsed / rates.coresAvailable;
  const shared =
    others > SHARED_ABOVE ? ` (other processes took ${pct(100 * others)} of the server's core)` : '';
  const said = `counted work predicts ${pct(predictedPct)}${interval(predictedCi95)} at this machine's rates${shared}`;
  if (!measured)
    return { ...predicted, judgement: 'not predicted', line: `${said}; no wall-clock figure to hold it to` };
  const [pLo, pHi] = predictedCi95 ?? [predictedPct, predictedPct];
  const [mLo, mHi] = measured.ci95 ?? [measured.pct, measured.pct];
  const beside = `${said}, the wall clock measured ${pct(measured.pct)}${interval(measured.ci95)}`;
  if (mLo <= pHi && pLo <= mHi)
    return { ...predicted, judgement: 'explained', line: `${beside}: explained by counted work` };
  const unexplainedPp = measured.pct - predictedPct;
  const unexplainedCi95: [number, number] = [mLo - pHi, mHi - pLo];
  const under = unexplainedPp > 0;
  const gap = `${Math.abs(unexplainedPp).toFixed(1)} points [${Math.abs(under ? unexplainedCi95[0] : unexplainedCi95[1]).toFixed(1)}, ${Math.abs(under ? unexplainedCi95[1] : unexplainedCi95[0]).toFixed(1)}]`;
  return {
    ...predicted,
    unexplainedPp,
    unexplainedCi95,
    judgement: under ? 'under-predicted' : 'over-predicted',
    line: under
      ? `${beside}: under-predicted, ${gap} not explained by counted work (waits, lock contention, cache effects, kernel time beyond write())`
      : `${beside}: over-predicted by ${gap} (the plugin's instructions ran faster than the server's average, or its writes cost less than the microbenchmark's)`,
  };
}
