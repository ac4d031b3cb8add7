import { totalmem } from 'node:os';
import { workloadNames } from '../config/lists.ts';
import { seedTableSize } from './seed-scale.ts';
import type { Workload, WorkloadName } from './workload.ts';

// τ for smoke, on the log scale (0.009 ≈ 0.9 pp): the method-of-moments estimate from bench:coverage's SQL_ERROR_LOG
// null controls, whose estimates scattered more than their own standard errors said.
// docs/measurements/2026-12-01-coverage-smoke.md has the figures, and the coverage with and without it.
const TAU_SMOKE = 0.009;
// τ for standard in its aligned design: the method-of-moments estimate from its null controls of bench:coverage (A/A
// and SQL_ERROR_LOG, quiet and under load). With it every interval of both designs measured in the same minutes
// contained 0: docs/measurements/2026-12-02-coverage-standard.md.
const TAU_STANDARD = 0.006;

/** The named workloads, smallest first. */
// Sized for CI: prepares in seconds and gives a verdict from one 48 s toggled run when the interval is clear.
const smoke: Workload = {
  name: 'smoke',
  test: 'oltp_read_write',
  tables: 4,
  tableSize: 10_000,
  threads: 4,
  // 2 s segments switched on sysbench's report boundaries (aligned, issue 25): 12 pairs in 48 s, no second dropped.
  // Short segments keep each pair inside one of this VM's speed regimes (they change every minute or two). On live
  // null controls its intervals were narrower than 8 pairs of 3 s with each switch's second dropped, and all
  // contained 0 (docs/measurements/2026-12-02-coverage-aligned-smoke.md).
  design: { kind: 'toggle', segmentS: 2, aligned: true },
  durationS: 10,
  // Loading the tables leaves dirty pages that InnoDB flushes over the next seconds; in CI the first (A/A) block
  // after a 5 s warm-up had a 3–7x wider interval than the overhead block after it. 20 s lets that settle.
  warmupS: 20,
  minWarmupS: 10,
  pairs: 12,
  maxPairs: 36,
  budgetS: 150,
  // CI wants a verdict, not a tracked figure: stop as soon as the interval clears the limit.
  targetHalfWidthPct: null,
  runToRunSdLog: TAU_SMOKE,
  // The PR gate as CI runs it: a verdict as soon as the interval clears the allowed regression.
  gate: { budgetS: 150, targetHalfWidthPct: null },
  pinCpus: true,
  // MariaDB 11.8 (in the auditbench/mariadb:11.8 container) had sysbench ignore 0.07–0.09% of transactions
  // under this load, on both arms alike; 0.5% leaves room for that and still refuses a run that is mostly retries.
  maxIgnoredErrorPct: 0.5,
  // No fsync per commit: the run is CPU-bound, the same cost an audit write adds to, and far less noisy.
  serverOptions: { innodb_flush_log_at_trx_commit: '0' },
};

export const workloads: Record<WorkloadName, Workload> = {
  // smoke's tables, threads and design in blocks of 4 pairs (16 s) in place of 12: for checking that a
  // configuration runs end to end (`./auditbench test` uses it), not for figures. A clear verdict stops after one
  // short block; an unclear one gets more blocks within smoke's budget, so what it decides is still decided. Its
  // warm-up ends after two 3 s chunks that agree (6 s, not 10), and a run of the separate-runs design (an arm
  // switched by restarts) lasts 6 s. A PR gate on it gets 60 s, warm-up included: the longest warm-up (20 s of
  // chunks, a few more to start them) and two toggled blocks of 4 pairs (16 s each) fit, so an undecided toggled
  // gate measures 8 pairs, and 12 after a short warm-up. At 45 s a slow warm-up left room for one block: a gate
  // stopped at 4 pairs, 7.2% [-1.8, 15.3] at a 1-point limit (issue 63). A gate that decides stops sooner.
  quick: {
    ...smoke,
    name: 'quick',
    pairs: 4,
    minWarmupS: 6,
    durationS: 6,
    gate: { budgetS: 60, targetHalfWidthPct: null },
  },
  smoke,
  // Default for benchmarking: 8 × 100k rows (~185 MB) outgrow the default 128 MB buffer pool, so some reads hit disk.
  standard: {
    name: 'standard',
    test: 'oltp_read_write',
    tables: 8,
    tableSize: 100_000,
    threads: 8,
    // 2 s segments switched on sysbench's report boundaries, so no second is dropped (aligned, issue 25), up to 60
    // pairs within the budget. Measured in the same minutes, a 60 s block of it was much narrower within the run than
    // 10 pairs of 3 s with each switch's second dropped (docs/measurements/2026-12-02-coverage-standard.md).
    design: { kind: 'toggle', segmentS: 2, aligned: true },
    durationS: 30,
    // 8 × 100k rows outgrow the buffer pool: give flushing and the page cache longer than smoke.
    warmupS: 45,
    // After a restart (every run has one before its measurement) the pool is back within seconds: InnoDB reloads the pages
    // it dumped at shutdown. Two 5 s chunks that agree end it; a slow first chunk (still loading) disagrees with the
    // next and the warm-up goes on.
    minWarmupS: 10,
    // A block is 10 pairs (40 s): the A/A's one block, and the first of a gate's. The budget (warm-up included) then
    // leaves room for one shorter block of at least 4 pairs after a 10 s warm-up, 14 pairs in all, and none after a
    // 15 s one (10 pairs). More pairs buy little in what is reported: τ adds ±1.2 pp to every interval whatever the
    // pairs, so a gate at ±1.3 within its run reports ±1.75, and one at ±1.0 reports ±1.55. A budget of 180 s bought
    // little precision for nearly twice the command's time; 72 s left no room for a second block after a 15 s warm-up,
    // and 75 s fits one of 4 pairs (docs/measurements/2026-12-02-bench-time.md). 75 s until 2026-12-08, when 70 s
    // brought `./auditbench bench` within 8 minutes with its counts (docs/measurements/2026-12-08-bench-time.md says
    // what the pairs it cut cost in width). Seconds a gate leaves unused go to the gates after it
    // (src/bench/time-bank.ts), up to twice the budget (140 s) for one gate.
    pairs: 10,
    maxPairs: 60,
    budgetS: 70,
    // Stop early once decisive and this run's own interval is this precise (τ left out: more pairs cannot shrink
    // it). The reported interval adds τ.
    targetHalfWidthPct: 1,
    runToRunSdLog: TAU_STANDARD,
    // The PR gate measures base beside head in one run, usually for one changed run: up to 4 minutes (warm-up
    // included) until that contrast is within ±1.0 pp in its own run. The half-width shrinks with √pairs: 75 s left a
    // null change short of ±1.0, which needs about twice the pairs on a quiet hour, and about 50 fit in 240 s
    // (docs/measurements/2026-12-02-pr-gate-budget.md). A gate stops as soon as it is decisive and that precise.
    gate: { budgetS: 240, targetHalfWidthPct: 1 },
    pinCpus: true,
    maxIgnoredErrorPct: 0.5,
    serverOptions: { innodb_flush_log_at_trx_commit: '0' },
  },
  // The seed report's setup (64 threads, 10 tables, 5 minutes, server defaults), to reproduce its figures. Its
  // 10M rows per table (24 GB on 64 GB of RAM) scale to this machine's memory, so data and memory stand in the
  // seed's ratio (src/workload/seed-scale.ts): the full 10M from 64 GiB up.
  seed: {
    name: 'seed',
    test: 'oltp_read_write',
    tables: 10,
    tableSize: seedTableSize(totalmem()),
    threads: 64,
    durationS: 300,
    // The seed ran each scenario once with no stated warm-up; a minute fills the buffer pool before measuring.
    warmupS: 60,
    minWarmupS: 60,
    // Separate 5-minute runs per arm, as the seed did; 3 pairs is the fewest that give a usable interval.
    design: { kind: 'runs' },
    pairs: 3,
    maxPairs: 6,
    budgetS: 3_600,
    targetHalfWidthPct: null,
    runToRunSdLog: 0,
    gate: { budgetS: 3_600, targetHalfWidthPct: null },
    pinCpus: false,
    maxIgnoredErrorPct: 0.5,
    serverOptions: {},
  },
};

export { workloadNames };

export function getWorkload(name: WorkloadName): Workload {
  const workload = workloads[name];
  // Callers holding a name from outside the type system (env, CLI) get a useful message rather than undefined.
  if (!workload) throw new Error(`Unknown workload '${name}': use one of ${workloadNames.join(', ')}`);
  return workload;
}
