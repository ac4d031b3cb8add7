import type { ConcurrencyPoint } from '../config/concurrency.ts';
import { MIN_EXTENSION_PAIRS } from '../stats/adaptive.ts';
import { resegmented, type Segments } from '../workload/aligned-design.ts';
import type { MeasurePlan, SysbenchJob, Workload } from '../workload/workload.ts';
import type { ArmSteps, ComparisonDesign } from './subject.ts';
import { budgetFrom } from './time-bank.ts';

/** What sysbench runs and how it is measured: planFor's answer, handed whole to the measurement. */
export interface Planned {
  job: SysbenchJob;
  plan: MeasurePlan;
}

/** The run's traffic as it reaches sysbench: the DBA's script (resolved to a path) and its prepared-statement mode. */
export interface JobTraffic {
  script: string | null;
  preparedStatements: boolean;
}

/** Everything a measurement's job and plan are built from; only `workload` is needed. */
export interface PlanInputs {
  /** The named preset (src/workload/workloads.ts): the source of every default. */
  workload: Workload;
  /**
   * The concurrency point: its thread count, and pinning only where it is pinned. The machine comes in here:
   * concurrencyPoints chose its cores from the CPUs and the target (an external server is never pinned).
   */
  point?: ConcurrencyPoint;
  /** The run's traffic (src/traffic/run-traffic.ts, jobTraffic). */
  traffic?: JobTraffic;
  /** Open loop: sysbench's --rate, transactions per second over all threads. */
  ratePerS?: number;
  /** The toggled design re-cut (the precision suites' comparisons of segment designs). */
  segments?: Segments;
  /**
   * A comparison of base and head (`auditbench gate`): the gate's own budget and target (MeasurePlan.gate), and in the
   * restarts and reconnect designs blocks of at most 3 pairs (6 runs, near a toggled block's length); reconnect's
   * arms are plain statements, so its separate runs are asked for here.
   */
  comparison?: ComparisonDesign;
  /**
   * A matrix cell: one block of half the preset's pairs, at least 4 (quick's whole block; at 3 pairs a cell once read
   * 0.6% [-282.3, 74.1]). A cell only has to show that a pairing works and fail a clear excess over the limit.
   */
  cell?: boolean;
  /** Seconds the earlier gates on this server left unspent (src/bench/time-bank.ts): the budget grows by them. */
  bankedS?: number;
  /** Stop after one block (the matrix, the precision suites): at most the block's pairs. */
  oneBlock?: boolean;
  /**
   * The steps that set each arm. A restart in them means separate runs, whose blocks keep about the toggled block's
   * measuring time with at least 4 pairs: a pair of whole runs lasts 2·durationS, not 2·segmentS, so smoke's 12
   * toggled pairs become 4 pairs of 10 s runs, not 12 (a restart per switch). Absent: arms that switch live.
   */
  arms?: ArmSteps;
}

/** Whether both arms switch with plain statements, inside one run. */
export const switchesLive = (arms: ArmSteps): boolean =>
  [...arms.on, ...arms.off].every((step) => step.kind === 'sql');

/** What sysbench runs for these inputs: the preset's job at the point's threads, with the traffic's script and mode. */
function jobFor({ workload, point, traffic, ratePerS }: PlanInputs): SysbenchJob {
  const script = traffic?.script ?? workload.script;
  const preparedStatements = traffic?.preparedStatements === false ? false : workload.preparedStatements;
  const rate = ratePerS ?? workload.rate;
  return {
    name: workload.name,
    test: workload.test,
    tables: workload.tables,
    tableSize: workload.tableSize,
    threads: point?.threads ?? workload.threads,
    maxIgnoredErrorPct: workload.maxIgnoredErrorPct,
    ...(script && { script }),
    ...(preparedStatements !== undefined && { preparedStatements }),
    ...(rate !== undefined && { rate }),
    serverOptions: workload.serverOptions,
  };
}

/**
 * The one place a measurement's plan is made, beside its job: the preset's, then in this order the point's pinning,
 * the re-cut segments, the comparison's budget and design, the matrix cell, the bank, one block, and what the arms
 * allow. The measurement passes both on unchanged; the runner gets the job and the duration each run lasts.
 */
export function planFor(inputs: PlanInputs): Planned {
  const { workload, point } = inputs;
  let plan: MeasurePlan = {
    design: workload.design,
    durationS: workload.durationS,
    warmupS: workload.warmupS,
    minWarmupS: workload.minWarmupS,
    pairs: workload.pairs,
    maxPairs: workload.maxPairs,
    budgetS: workload.budgetS,
    targetHalfWidthPct: workload.targetHalfWidthPct,
    runToRunSdLog: workload.runToRunSdLog,
    gate: workload.gate,
    pinCpus: point ? point.cores === 'pinned' : workload.pinCpus,
  };
  if (inputs.segments) plan = { ...plan, ...resegmented(plan, inputs.segments, workload.name) };
  if (inputs.comparison) {
    plan = { ...plan, ...plan.gate };
    if (inputs.comparison !== 'toggle') plan.pairs = Math.min(plan.pairs, 3);
    if (inputs.comparison === 'reconnect') plan.design = { kind: 'runs' };
  }
  if (inputs.cell) {
    const pairs = Math.max(4, Math.ceil(plan.pairs / 2));
    plan = { ...plan, pairs, maxPairs: pairs };
  }
  if (inputs.bankedS !== undefined) plan.budgetS = budgetFrom(inputs.bankedS, plan);
  if (inputs.oneBlock) plan.maxPairs = plan.pairs;
  if (inputs.arms && !switchesLive(inputs.arms) && plan.design.kind === 'toggle') {
    const sameSeconds = Math.round((plan.pairs * plan.design.segmentS) / plan.durationS);
    plan = {
      ...plan,
      design: { kind: 'runs' },
      pairs: Math.min(plan.pairs, Math.max(MIN_EXTENSION_PAIRS, sameSeconds)),
    };
  }
  return { job: jobFor(inputs), plan };
}
