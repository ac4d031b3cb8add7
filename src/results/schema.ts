import { z } from 'zod';
import { serverFlavors, targetNames } from '../config/lists.ts';
import { interferenceSchema } from '../machine/block-interference.ts';
import { countedSchema } from './counted-record.ts';
import { faultRecordSchema } from './fault-record.ts';
import { perEventSchema } from './per-event-record.ts';

const json: z.ZodType<unknown> = z.lazy(() =>
  z.union([z.string(), z.number(), z.boolean(), z.null(), z.array(json), z.record(z.string(), json)]),
);

export const lifecycleCheckSchema = z.object({
  check: z.string(),
  expected: json,
  observed: json,
  ok: z.boolean(),
  details: json.optional(),
});

export const serverSchema = z.object({
  flavor: z.enum(serverFlavors),
  version: z.string(),
  target: z.enum(targetNames),
});

export const runSchema = z.object({
  /** A whole-arm run, or a run with the plugin switched on and off inside it. */
  arm: z.enum(['off', 'on', 'toggled']),
  /** When each arm began, seconds into the run. */
  schedule: z.array(z.object({ atS: z.number(), arm: z.enum(['off', 'on']) })),
  tps: z.number(),
  qps: z.number(),
  latencyAvgMs: z.number(),
  latencyP95Ms: z.number(),
  logBytes: z.number(),
  /** Per-second TPS, for timelines. */
  tpsPerSecond: z.array(z.number()),
});

/**
 * A measurement's verdict: pass, fail and inconclusive judge its interval against the limit; idle says it cannot be
 * judged, because the plugin logged nothing of the measured traffic (auditEvents.advice says why and what to do).
 */
export const measuredVerdicts = ['pass', 'fail', 'inconclusive', 'idle'] as const;

/** Why a plugin logged nothing of the traffic, in the order of evidence (src/bench/silence.ts). */
export const silenceCauses = ['log-unwritable', 'accounts-filtered', 'events-absent', 'unknown'] as const;

/** What the configuration logged of the measured traffic, from the parsed log, plugin-on seconds only. */
export const auditEventsSchema = z.object({
  /** Audit events per transaction by the log's own class (QUERY, TABLE, CONNECT, …). */
  perTxnByClass: z.record(z.string(), z.number()),
  /** Events per transaction whose user is one of the traffic's accounts. */
  fromTrafficPerTxn: z.number(),
  /** The accounts the measured traffic used. */
  accounts: z.array(z.string()),
  /** No event of the traffic's accounts in plugin-on time: an idle plugin was measured. */
  idle: z.boolean(),
  /** When idle: the one line that says so and what to add; else null. */
  advice: z.string().nullable(),
  /** When idle: why, from the server's own status and error log, then the configuration; absent before it. */
  cause: z.enum(silenceCauses).nullable().optional(),
});

/** The traffic a result was measured with (the run's `traffic`, resolved). */
export const trafficRecordSchema = z.object({
  accounts: z.object({ application: z.string(), checks: z.string() }),
  added: z.record(z.string(), z.number()),
  script: z.object({ path: z.string(), sha256: z.string() }).nullable(),
  preparedStatements: z.boolean(),
});

const intervalSchema = z.tuple([z.number(), z.number()]).nullable();

/** One tail quantile with the plugin off and on, and its paired change (src/stats/paired-latency.ts). */
export const quantileChangeSchema = z.object({
  offMs: z.number(),
  onMs: z.number(),
  changePct: z.number(),
  changeMs: z.number(),
  changeCi95Pct: intervalSchema,
  changeCi95Ms: intervalSchema,
  perPairChangePct: z.array(z.number()),
});

/** p95/p99 transaction latency per arm (src/workload/latency-wrapper.lua), or why it was not measured. */
export const latencySchema = z.discriminatedUnion('measured', [
  z.object({
    measured: z.literal(true),
    pairs: z.number().int(),
    /** TPS pairs left out because a segment pooled too few transactions for a p99. */
    skippedPairs: z.number().int(),
    trimmedEachSide: z.number().int(),
    /** Transactions pooled over the paired segments of each arm. */
    offTransactions: z.number().int(),
    onTransactions: z.number().int(),
    p95: quantileChangeSchema,
    p99: quantileChangeSchema,
    /** The run's maxP99IncreasePct, or null when it sets none. */
    maxP99IncreasePct: z.number().nullable(),
    /** True only when the p99 change interval lies wholly above the limit. */
    p99LimitFailed: z.boolean(),
    reason: z.string(),
  }),
  z.object({ measured: z.literal(false), reason: z.string() }),
]);

/** The server's resident memory (VmRSS) per arm, the median of samples taken under load, or why it was not read. */
export const memorySchema = z.discriminatedUnion('measured', [
  z.object({
    measured: z.literal(true),
    offMiB: z.number(),
    onMiB: z.number(),
    /** onMiB − offMiB: what switching the plugin on adds while it runs (its install-time allocations are in both). */
    changeMiB: z.number(),
    maxMiB: z.number(),
    samples: z.number().int(),
  }),
  z.object({ measured: z.literal(false), reason: z.string() }),
]);

export const measurementSchema = z.object({
  baselineTps: z.number(),
  pluginTps: z.number(),
  overheadPct: z.number(),
  overheadCi95: z.tuple([z.number(), z.number()]).nullable(),
  /**
   * The same interval without the run-to-run spread: what this run's own pairs say, and the width a comparison
   * inside one run has (the precision target's). Equal to overheadCi95 where τ is 0; absent in results before it.
   */
  withinRunCi95: z.tuple([z.number(), z.number()]).nullable().optional(),
  perPairOverheadPct: z.array(z.number()),
  pairs: z.number().int(),
  /** Pairs the trimmed mean left out at each end (the most extreme ratios); absent in results before it. */
  trimmedEachSide: z.number().int().default(0),
  /** The workload's run-to-run spread (log scale) the interval carries; absent in results before it. */
  runToRunSdLog: z.number().default(0),
  design: z.string(),
  stoppedBecause: z.enum(['decisive', 'budget', 'fixed']),
  /** CPU pinning in force, or null. */
  pinning: z.string().nullable(),
  /** From the A/A calibration on the same server and workload, when it ran. */
  noiseFloorPct: z.number().nullable(),
  minDetectablePct: z.number().nullable(),
  limitPct: z.number(),
  verdict: z.enum(measuredVerdicts),
  reason: z.string(),
  logBytes: z.number(),
  logBytesPerTxn: z.number().nullable(),
  logMbPerMin: z.number().nullable(),
  /** Settings the figures were taken under. */
  serverOptions: z.record(z.string(), z.string()),
  pluginSettings: z.record(z.string(), z.string()),
  wallS: z.number(),
  runs: z.array(runSchema),
  /** Other processes' CPU, steal and load per block, and whether that marks the result (src/machine). */
  interference: interferenceSchema.optional(),
  /** Audit events per transaction by class, and whether the measured traffic was audited at all. */
  auditEvents: auditEventsSchema.optional(),
  /** What traffic.added actually sent over the whole measurement (warm-up included), by kind: statements or logins. */
  addedSent: z.record(z.string(), z.number()).optional(),
  /** sysbench threads of this point (src/workload/threads.ts); absent in results before sweeps. */
  threads: z.number().int().optional(),
  /** pinned (server on CPU 0, sysbench on CPU 1) or all; absent in results before sweeps. */
  cores: z.enum(['pinned', 'all']).optional(),
  /** The run this point belongs to, when a sweep measured it under a run id of its own (`id@t4-all`). */
  sweepOf: z.string().optional(),
  /** Tail latency per arm beside throughput; absent in results before it. */
  latency: latencySchema.optional(),
  /** The server's resident memory with the plugin off and on; absent in results before it. */
  memory: memorySchema.optional(),
  /** An open-loop point: sysbench sent a fixed rate, set from a closed-loop point's baseline TPS. */
  openLoop: z
    .object({
      ratePerS: z.number().int(),
      ofBaselinePct: z.number(),
      baselineTps: z.number(),
      /** The closed-loop result whose baseline set the rate. */
      baselineRunId: z.string(),
    })
    .optional(),
});

/** A/A: the same measurement with the plugin off in both arms; its interval should contain 0. */
export const calibrationSchema = z.object({
  pairs: z.number().int(),
  biasPct: z.number(),
  biasCi95: z.tuple([z.number(), z.number()]),
  sdLogRatio: z.number(),
  noiseFloorPct: z.number(),
  minDetectablePct: z.number(),
  /** The gate size the floor applies to. */
  gatePairs: z.number().int(),
  containsZero: z.boolean(),
  wallS: z.number(),
  /** As in the measurement: who else used the CPUs while the A/A blocks ran. */
  interference: interferenceSchema.optional(),
  /** The latency statistic's own null control: its p99 change interval should contain 0 too. */
  latency: latencySchema.optional(),
});

export const machineSchema = z.object({
  hostname: z.string(),
  cpuModel: z.string(),
  cores: z.number().int(),
  memoryBytes: z.number(),
  platform: z.string(),
  node: z.string(),
});

/** One event kind of one completeness phase (src/completeness/count.ts explains each count). */
export const completenessKindSchema = z.object({
  kind: z.string(),
  claim: z.enum(['logged', 'absent', 'unchecked']),
  sent: z.number().int(),
  acked: z.number().int(),
  refused: z.number().int(),
  unanswered: z.number().int(),
  logged: z.number().int(),
  lost: z.number().int(),
  duplicated: z.number().int(),
  strays: z.number().int(),
  unansweredLogged: z.number().int(),
  ok: z.boolean(),
});

/** One phase of the completeness check: quiet, under load with rotation, or SIGKILL under load. */
export const completenessPhaseSchema = z.object({
  phase: z.enum(['quiet', 'load', 'crash']),
  kinds: z.array(completenessKindSchema),
  rotations: z.number().int(),
  /** Log files deleted before they were read (a rotation count too small for the phase). */
  filesDeleted: z.number().int(),
  logFiles: z.number().int(),
  tornLines: z.number().int(),
  damagedLines: z.number().int(),
  /** sysbench TPS while the markers were sent; null without load. */
  loadTps: z.number().nullable(),
  /** Acked markers missing from the log at a crash; null outside the crash phase. */
  lostAtCrash: z.number().int().nullable(),
  /** After the crash: whether the plugin is installed and logging as the profile expects after a restart. */
  afterRestart: z
    .object({ expected: z.record(z.string(), z.boolean()), observed: z.record(z.string(), z.boolean()) })
    .nullable(),
  /** The plugin's variables as read from the server, buffering settings included. */
  settings: z.record(z.string(), z.string()),
  durabilityNote: z.string(),
  durationS: z.number(),
  ok: z.boolean(),
  reason: z.string(),
});

/** One plugin on one server with one workload: what results.json holds per entry. */
export const pluginResultSchema = z.object({
  /** The configuration run (auditbench.config.ts) this result belongs to; absent in results before runs existed. */
  runId: z.string().optional(),
  /** The built-in profile the run started from, by registry id; null: the user's own; absent in results before it. */
  profileId: z.string().nullable().optional(),
  plugin: z.string(),
  title: z.string(),
  server: serverSchema,
  workload: z.string(),
  baselineTps: z.number().nullable(),
  pluginTps: z.number().nullable(),
  overheadPct: z.number().nullable(),
  limitPct: z.number(),
  /** pass/fail/inconclusive/idle from the measurement; 'error' when no measurement finished. */
  verdict: z.enum([...measuredVerdicts, 'error']),
  overheadCi95: z.tuple([z.number(), z.number()]).nullable(),
  pairs: z.number().int(),
  noiseFloorPct: z.number().nullable(),
  minDetectablePct: z.number().nullable(),
  logBytesPerTxn: z.number().nullable(),
  lifecycle: z.array(lifecycleCheckSchema),
  measurement: measurementSchema.nullable(),
  calibration: calibrationSchema.nullable(),
  /** The run's settings as applied: SET GLOBAL values, my.cnf startup options, and the option file they came from. */
  settings: z
    .object({
      global: z.record(z.string(), z.string()),
      startup: z.record(z.string(), z.string()),
      optionFile: z.string().nullable(),
    })
    .optional(),
  /** Hash of the profile's effective configuration, when the suite attached it (history compares by it). */
  configHash: z.string().optional(),
  /** The machine that measured this result, when the suite attached it: shards merged elsewhere keep it. */
  machine: machineSchema.optional(),
  /** Completeness phases (suites/completeness.suite.ts), when that suite ran for this plugin. */
  completeness: z.array(completenessPhaseSchema).optional(),
  /** Fault phases (suites/faults.suite.ts): disk full, frozen, moved, copytruncate, unwritable dirs; when that suite ran. */
  faults: z.array(faultRecordSchema).optional(),
  /** Per-event costs, their production projection and the cross-check with sysbench (suites/per-event.suite.ts). */
  perEvent: perEventSchema.optional(),
  /** The counted channel (src/counted): instructions, syscalls and bytes per transaction under callgrind. */
  counted: countedSchema.optional(),
  /** The measured traffic: accounts, added rates, the DBA's script; absent in results before it. */
  traffic: trafficRecordSchema.optional(),
  /** In a merged results.json: the invocation that measured this result (its id in runs/index.json). */
  invocationId: z.string().optional(),
});

/** What a locally built image was built from, out of its labels (scripts/docker/build-images.sh). */
export const imageBuildSchema = z.object({
  suite: z.string(),
  /** `name=version` of the server packages and the libraries under them. */
  packages: z.array(z.string()),
  builtAt: z.string().nullable(),
});

/** One plugin × server cell of the compatibility matrix. */
export const matrixCellSchema = z.object({
  plugin: z.string(),
  server: serverSchema.extend({
    image: z.string().nullable(),
    imageBuild: imageBuildSchema.nullable().optional(),
  }),
  /** unavailable: the server was requested and could not be built or started, so nothing was tried on it. */
  outcome: z.enum(['works', 'incompatible', 'crash-loop', 'skipped', 'error', 'unavailable']),
  reason: z.string(),
  /** An unavailable server's evidence: the last lines of its image's build log, or of its failed start. */
  details: z.array(z.string()).optional(),
  lifecycleOk: z.boolean().nullable(),
  overheadPct: z.number().nullable(),
  overheadCi95: z.tuple([z.number(), z.number()]).nullable(),
  verdict: z.enum(measuredVerdicts).nullable(),
});

const resultsFileObject = z.object({
  generatedAt: z.string(),
  machine: machineSchema,
  results: z.array(pluginResultSchema),
  /** Present when the matrix suite ran. */
  matrix: z.array(matrixCellSchema).optional(),
  /** In a merged results.json: the invocations whose results it shows, oldest first, and their own files. */
  invocations: z.array(z.object({ id: z.string(), generatedAt: z.string(), file: z.string() })).optional(),
});

/**
 * A merged results.json written before the names were settled called its invocations `runs` and each result's
 * invocation `measuredInRun`; they are read as today's names.
 */
function resultsFromOldNames(value: unknown): unknown {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return value;
  const { runs, ...rest } = value as { runs?: unknown; invocations?: unknown; results?: unknown };
  const file = runs === undefined || 'invocations' in rest ? value : { ...rest, invocations: runs };
  const results = (file as { results?: unknown }).results;
  if (!Array.isArray(results)) return file;
  return {
    ...file,
    results: results.map((r: unknown) => {
      if (typeof r !== 'object' || r === null || !('measuredInRun' in r) || 'invocationId' in r) return r;
      const { measuredInRun, ...result } = r as { measuredInRun: unknown };
      return { ...result, invocationId: measuredInRun };
    }),
  };
}

export const resultsFileSchema = z.preprocess(resultsFromOldNames, resultsFileObject);

export type LifecycleCheckRecord = z.infer<typeof lifecycleCheckSchema>;
export type Measurement = z.infer<typeof measurementSchema>;
export type Calibration = z.infer<typeof calibrationSchema>;
export type PluginResult = z.infer<typeof pluginResultSchema>;
export type ResultsFile = z.infer<typeof resultsFileObject>;
export type Machine = z.infer<typeof machineSchema>;
export type MatrixCellRecord = z.infer<typeof matrixCellSchema>;
export type CompletenessPhase = z.infer<typeof completenessPhaseSchema>;
export type CompletenessKind = z.infer<typeof completenessKindSchema>;
export type AuditEvents = z.infer<typeof auditEventsSchema>;
export type TrafficRecord = z.infer<typeof trafficRecordSchema>;
