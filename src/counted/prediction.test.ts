import { describe, expect, test } from 'vitest';
import type { CountedRecord, MachineRates } from '../results/counted-record.ts';
import { lossPct, notPredictedBecause, predict, secondsPerInstruction } from './prediction.ts';

// A pinned server kept 0.98 of its core busy: 1 ms of CPU a transaction, 0.6 ms of it the connection threads' user
// time over 2,000,000 counted instructions (0.3 ns an instruction); a 50-byte write() costs 2 µs of kernel time.
const rates: MachineRates = {
  transactions: 9_800,
  seconds: 10,
  serverCpuPerTx: 0.001,
  connectionUserPerTx: 0.0006,
  coresUsed: 0.98,
  coresAvailable: 1,
  idleShare: 0.01,
  writeTimings: [],
  secondsPerWrite: 2e-6,
  writeSize: 50,
  failed: null,
};

const figure = (offPerTx: number, addedPerTx: number, addedCi95: [number, number] | null) => ({
  offPerTx,
  onPerTx: offPerTx + addedPerTx,
  addedPerTx,
  addedCi95,
  pct: (100 * addedPerTx) / offPerTx,
  pctCi95: null,
  spreadPct: { off: 0.1, on: 0.1 },
});

// +150,000 instructions [140k, 160k] and +50 writes [48, 52] a transaction.
const figures: CountedRecord['figures'] = {
  instructions: figure(2_000_000, 150_000, [140_000, 160_000]),
  writeCalls: figure(100, 50, [48, 52]),
  writeBytes: figure(5_000, 2_500, null),
  logBytes: figure(0, 2_500, null),
  events: figure(0, 38, null),
};

describe('the calibration arithmetic', () => {
  test('an instruction costs the connection threads’ user CPU per counted instruction', () => {
    expect(secondsPerInstruction(rates, 2_000_000)).toBeCloseTo(3e-10, 15);
  });

  test('on a saturated core, Δ seconds added to c cost Δ ÷ (c + Δ) of the throughput', () => {
    expect(lossPct(0.001, 0.001)).toBe(50);
    expect(lossPct(0.001, 0)).toBe(0);
  });

  test('counts priced at the rates: 150k × 0.3 ns + 50 × 2 µs = 145 µs on 1 ms, 12.66% [12.2, 13.1]', () => {
    const p = predict({ rates, figures, measured: { pct: 12.5, ci95: [11, 14] } });
    // 45 µs of instructions and 100 µs of writes on 1,000 µs.
    expect(p.predictedPct).toBeCloseTo((100 * 145) / 1145, 6);
    expect(p.predictedCi95?.[0]).toBeCloseTo((100 * (42 + 96)) / (1000 + 42 + 96), 6);
    expect(p.predictedCi95?.[1]).toBeCloseTo((100 * (48 + 104)) / (1000 + 48 + 104), 6);
    expect(p.addedS?.instructions).toBeCloseTo(45e-6, 12);
    expect(p.addedS?.writes).toBeCloseTo(100e-6, 12);
    expect(p.judgement).toBe('explained');
    expect(p.unexplainedPp).toBeNull();
    expect(p.line).toBe(
      "counted work predicts 12.7% [12.1, 13.2] at this machine's rates, the wall clock measured 12.5% [11.0, 14.0]: explained by counted work",
    );
  });

  test('a wall clock above the prediction’s interval: the rest is not explained by counted work', () => {
    const p = predict({ rates, figures, measured: { pct: 20, ci95: [18, 22] } });
    expect(p.judgement).toBe('under-predicted');
    expect(p.unexplainedPp).toBeCloseTo(20 - (100 * 145) / 1145, 6);
    expect(p.unexplainedCi95?.[0]).toBeCloseTo(18 - (100 * 152) / 1152, 6);
    expect(p.line).toMatch(
      /under-predicted, 7\.3 points \[4\.8, 9\.9\] not explained by counted work \(waits/,
    );
  });

  test('a wall clock below it: over-predicted, by how much', () => {
    const p = predict({ rates, figures, measured: { pct: 5, ci95: [4, 6] } });
    expect(p.judgement).toBe('over-predicted');
    expect(p.unexplainedPp).toBeCloseTo(5 - (100 * 145) / 1145, 6);
    expect(p.line).toMatch(/over-predicted by 7\.7 points \[6\.1, 9\.2\]/);
  });

  test('no write cost timed (the plugin adds no writes): instructions alone', () => {
    const p = predict({ rates: { ...rates, secondsPerWrite: null }, figures, measured: null });
    expect(p.predictedPct).toBeCloseTo((100 * 45) / 1045, 6);
    expect(p.judgement).toBe('not predicted');
    expect(p.line).toMatch(/no wall-clock figure to hold it to$/);
  });

  test('a negative count (noise around zero) predicts no loss, not a gain', () => {
    const none = {
      ...figures,
      instructions: figure(2_000_000, -1_000, [-3_000, 1_000]),
      writeCalls: figure(100, 0, null),
    };
    const p = predict({ rates, figures: none, measured: { pct: 0.2, ci95: [-1, 1.4] } });
    expect(p.predictedPct).toBe(0);
    expect(p.predictedCi95?.[1]).toBeGreaterThan(0);
    expect(p.judgement).toBe('explained');
  });

  test('only a pinned, saturated server is predicted', () => {
    expect(notPredictedBecause(rates, 2_000_000)).toBeNull();
    expect(notPredictedBecause({ ...rates, coresAvailable: 2, coresUsed: 1.9 }, 2_000_000)).toMatch(
      /not pinned to a core of its own/,
    );
    expect(notPredictedBecause({ ...rates, coresUsed: 0.7, idleShare: 0.29 }, 2_000_000)).toBe(
      "the server's core sat idle 29.0% of the plugin-off run (the server used 0.70 of it): waits, not work, set its pace",
    );
    expect(notPredictedBecause({ ...rates, failed: 'the server process was not found' }, 1)).toBe(
      'the server process was not found',
    );
    const p = predict({
      rates: { ...rates, coresUsed: 0.7, idleShare: 0.29 },
      figures,
      measured: { pct: 10, ci95: [9, 11] },
    });
    expect(p).toMatchObject({ judgement: 'not predicted', predictedPct: null, measuredPct: 10 });
    expect(p.line).toMatch(
      /^counted work not turned into a wall-clock figure: the server's core sat idle 29\.0%/,
    );
  });

  test('a core the server shared with other processes is predicted, and said to be shared', () => {
    const p = predict({ rates: { ...rates, coresUsed: 0.5, idleShare: 0.02 }, figures, measured: null });
    expect(p.predictedPct).toBeCloseTo((100 * 145) / 1145, 6);
    expect(p.line).toContain("(other processes took 48.0% of the server's core)");
  });
});
