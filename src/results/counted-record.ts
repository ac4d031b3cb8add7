import { z } from 'zod';

const ci95 = z.tuple([z.number(), z.number()]).nullable();

/** One quantity per transaction: off, on, what on adds with its interval across pairs, and the arms' spread. */
export const countedFigureSchema = z.object({
  offPerTx: z.number(),
  onPerTx: z.number(),
  addedPerTx: z.number(),
  addedCi95: ci95,
  pct: z.number().nullable(),
  pctCi95: ci95,
  spreadPct: z.object({ off: z.number().nullable(), on: z.number().nullable() }),
});

/**
 * What was counted: two records with the same identity ran the same code on the same statements, so their counts
 * compare across machines. The audit log's bytes include the host name; they are compared net of it.
 */
export const countedIdentitySchema = z.object({
  serverVersion: z.string(),
  serverSha256: z.string().nullable(),
  /** The plugin library's sha256; null for a server built-in (the general log) or a library not found. */
  pluginSha256: z.string().nullable(),
  configHash: z.string().nullable(),
  /** The counted workload: test or script, tables × rows, transactions per arm, seed. */
  workload: z.string(),
  valgrind: z.string(),
  glibcSha256: z.string().nullable(),
  /** The CPU features glibc chooses its string functions by (memcpy, strlen…), as this machine reports them. */
  cpuFeatures: z.array(z.string()),
  /** GLIBC_TUNABLES the counted server ran with: it pins those choices so that two machines run the same code. */
  glibcTunables: z.string(),
  /** Bytes of the host name, which each audit record of some plugins carries. */
  hostNameBytes: z.number().int(),
});

const idAlignmentSchema = z.object({
  afterWarmup: z.number().int(),
  warmupIds: z.number().int(),
  boundIds: z.number().int(),
  advancedBy: z.number().int(),
  first: z.number().int(),
  last: z.number().int(),
});

export const countedArmSchema = z.object({
  kind: z.enum(['off', 'on']),
  warmup: z.boolean(),
  transactions: z.number().int(),
  instructions: z.number(),
  writeCalls: z.number(),
  writeBytes: z.number(),
  logBytes: z.number(),
  events: z.number(),
  /**
   * Connection threads whose write syscalls and bytes the arm could not count: they exited before its second reading
   * of /proc, or the server created them in the arm and that reading never saw them. 0 in every arm: the write figures
   * are complete.
   */
  lostThreads: z.number().int(),
});

/**
 * What a plugin-off run on the wall-clock server says of this machine (src/counted/machine-rates.ts): what its CPU
 * spends per transaction, and what one write() of the plugin's record size costs the kernel.
 */
export const machineRatesSchema = z.object({
  /** sysbench's transactions and the seconds between the two readings of /proc. */
  transactions: z.number(),
  seconds: z.number(),
  /** CPU seconds per transaction of the whole server process: every thread, user and system. */
  serverCpuPerTx: z.number(),
  /** User CPU seconds per transaction of the threads that served sysbench's connections. */
  connectionUserPerTx: z.number(),
  /** Cores the server kept busy on average, and how many it had: 1 when pinned. */
  coresUsed: z.number(),
  coresAvailable: z.number(),
  /**
   * The share of the server's cores (CPU 0 when pinned) that sat idle during the run: under 10%, the core had nothing
   * to give and the server's CPU set its pace. What neither the server nor idle took went to other processes.
   */
  idleShare: z.number(),
  /** Kernel seconds per write() at a few record sizes, appended to a file beside the plugin's log, right after. */
  writeTimings: z.array(z.object({ bytes: z.number(), seconds: z.number() })),
  /** The price of one write() at `writeSize`, the arms' added bytes per added call; null where they add no write. */
  secondsPerWrite: z.number().nullable(),
  writeSize: z.number().nullable(),
  /** Why the readings could not be taken; null when they were. */
  failed: z.string().nullable(),
});

/**
 * The counted figures priced at this machine's rates (src/counted/prediction.ts), beside the wall-clock overhead.
 * `unexplainedPp` is measured − predicted where the two intervals do not overlap.
 */
export const predictionSchema = z.object({
  rates: machineRatesSchema,
  secondsPerInstruction: z.number().nullable(),
  /** CPU seconds the counts add to a transaction at these rates: instructions, and write() calls; null unpriced. */
  addedS: z.object({ instructions: z.number(), writes: z.number() }).nullable(),
  predictedPct: z.number().nullable(),
  predictedCi95: ci95,
  measuredPct: z.number().nullable(),
  measuredCi95: ci95,
  unexplainedPp: z.number().nullable(),
  unexplainedCi95: ci95,
  judgement: z.enum(['explained', 'under-predicted', 'over-predicted', 'not predicted']),
  /** The one line the terminal, summary.md and index.html give. */
  line: z.string(),
});

export const countedSchema = z.object({
  /** What the arms switched: the plugin off/on, or base/head in a gate. */
  subject: z.string(),
  pairs: z.number().int(),
  eventsPerArm: z.number().int(),
  seed: z.number().int(),
  threads: z.literal(1),
  figures: z.object({
    instructions: countedFigureSchema,
    writeCalls: countedFigureSchema,
    writeBytes: countedFigureSchema,
    logBytes: countedFigureSchema,
    events: countedFigureSchema,
  }),
  /** The functions whose own instructions the subject adds most per transaction, top ten. */
  topFunctions: z.array(z.object({ object: z.string(), fn: z.string(), addedPerTx: z.number() })),
  byObject: z.array(z.object({ object: z.string(), addedPerTx: z.number() })),
  entryPoints: z.array(
    z.object({
      fn: z.string(),
      callsPerTx: z.number(),
      inclusivePerTx: z.number(),
      offInclusivePerTx: z.number(),
    }),
  ),
  /**
   * Calls into libc's send family per transaction, off and on (a syslog run's records leave through send(), which the
   * write counts of /proc do not see). Absent in records made before 2026-12-07 and where no arm called it.
   */
  sendCalls: z.object({ offPerTx: z.number(), onPerTx: z.number(), addedPerTx: z.number() }).optional(),
  arms: z.array(countedArmSchema),
  /**
   * traffic.added as the arms sent it: after each arm's transactions, `perArm` of each kind, its rate per second
   * scaled by the wall clock's throughput without the subject (under valgrind a rate per second would be a far richer
   * mix). Absent when the run adds no traffic.
   */
  added: z
    .object({
      wallClockTps: z.number(),
      kinds: z.array(z.object({ kind: z.string(), perS: z.number(), perArm: z.number().int() })),
    })
    .optional(),
  /**
   * The server's query ids around the measured arms. server_audit logs each statement's id, so an id that gains a digit
   * between arms lengthens the later arms' lines: the id was moved past the power of ten the arms would cross
   * (`advancedBy` ids, from `afterWarmup`), and `first` (the first id the arms could take) and `last` (the latest given
   * out after them) have one width unless the bound was short. Null where the server shows no query id; absent before 2026-12-05.
   */
  queryIds: idAlignmentSchema.nullable().optional(),
  /** The same for connection ids, which server_audit also logs on every line (the `Connections` counter). */
  connectionIds: idAlignmentSchema.nullable().optional(),
  /**
   * The counted on arms' audit events per transaction against the wall clock's (`judgeComparable`): `refused` is the
   * one line that says why the figures are not the plugin's cost, or null. `wallClockEventsPerTx` is null where the
   * wall clock counted no events (nothing to compare). Absent before 2026-12-05.
   */
  comparable: z
    .object({ wallClockEventsPerTx: z.number().nullable(), refused: z.string().nullable() })
    .optional(),
  identity: countedIdentitySchema,
  /** The counts turned into an expected wall-clock overhead on this machine; absent where no wall clock ran first. */
  prediction: predictionSchema.optional(),
  wallS: z.number(),
  /** What the figures leave out, said with them. */
  limits: z.array(z.string()),
});

export type CountedRecord = z.infer<typeof countedSchema>;
export type CountedIdentity = z.infer<typeof countedIdentitySchema>;
export type MachineRates = z.infer<typeof machineRatesSchema>;
export type Prediction = z.infer<typeof predictionSchema>;
