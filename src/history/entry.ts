import { z } from 'zod';
import { countedIdentitySchema } from '../results/counted-record.ts';
import {
  type Machine,
  measuredVerdicts,
  type PluginResult,
  type ResultsFile,
  serverSchema,
} from '../results/schema.ts';

/**
 * A run's counted figures as history keeps them: what the plugin adds per transaction under callgrind, and the
 * identity of what was counted. Entries of one identity compare across machines (src/history/counted-compare.ts).
 */
export const historyCountedSchema = z.object({
  identity: countedIdentitySchema,
  instructionsPct: z.number(),
  instructionsPctCi95: z.tuple([z.number(), z.number()]).nullable(),
  instructionsAddedPerTx: z.number(),
  writeCallsAddedPerTx: z.number(),
  /** The audit log's added bytes per transaction less the host name each event carries (it differs by machine). */
  logBytesNetAddedPerTx: z.number(),
  eventsPerTx: z.number(),
});
export type HistoryCounted = z.infer<typeof historyCountedSchema>;

/** One line of history.jsonl as written: one plugin × server × workload result of one invocation. */
const historyLineSchema = z.object({
  v: z.literal(1),
  /** The invocation (one `bench`, `test`, `gate` or `npx vitest run`) that recorded it; shared by its entries. */
  invocationId: z.string(),
  recordedAt: z.string(),
  commit: z.string(),
  branch: z.string(),
  plugin: z.string(),
  /** The built-in profile the run started from (registry id); null: the user's own profile, or before it existed. */
  profileId: z.string().nullable().default(null),
  title: z.string(),
  /** The configured run (its `id` in auditbench.config.ts) the result belongs to; comparisons match on it. Null before. */
  runId: z.string().nullable().default(null),
  /** Hash of the profile's effective configuration (src/runs/config-hash.ts); null when the suite gave none. */
  configHash: z.string().nullable(),
  server: serverSchema,
  workload: z.string(),
  machine: z.object({ cpuModel: z.string(), cores: z.number().int(), memoryBytes: z.number() }),
  /** CPU model, cores and memory in one string: figures compare only between equal fingerprints. */
  fingerprint: z.string(),
  /** The machine's hostname: equal fingerprints on two VMs still measure differently. Absent before; null unknown. */
  hostname: z.string().nullable().default(null),
  /** As results.json's; 'idle' (a plugin that logged none of the traffic) is never compared. Lines before it parse. */
  verdict: z.enum([...measuredVerdicts, 'error']),
  overheadPct: z.number().nullable(),
  overheadCi95: z.tuple([z.number(), z.number()]).nullable(),
  pairs: z.number().int(),
  limitPct: z.number(),
  noiseFloorPct: z.number().nullable(),
  baselineTps: z.number().nullable(),
  pluginTps: z.number().nullable(),
  /** The counted channel's figures, when the run was counted; absent before it existed. */
  counted: historyCountedSchema.nullable().default(null),
});

/**
 * A line written before the names were settled called the invocation `runId` and the configured run `configRun`.
 * A line with no `invocationId` is one of those: its names are moved to today's before the line is checked.
 */
function fromOldNames(value: unknown): unknown {
  if (typeof value !== 'object' || value === null || Array.isArray(value) || 'invocationId' in value)
    return value;
  const { runId, configRun, ...rest } = value as { runId?: unknown; configRun?: unknown };
  return { ...rest, invocationId: runId, runId: configRun ?? null };
}

/** One line of history.jsonl, in today's names or the old ones (read as today's). */
export const historyEntrySchema = z.preprocess(fromOldNames, historyLineSchema);

export type HistoryEntry = z.infer<typeof historyLineSchema>;

/** Where an invocation's code came from. */
export interface Revision {
  commit: string;
  branch: string;
}

const GIB = 1024 ** 3;

/** Memory is rounded to whole GiB: the kernel reports a few MB more or less across reboots of the same machine. */
export function machineFingerprint(machine: Pick<Machine, 'cpuModel' | 'cores' | 'memoryBytes'>): string {
  return `${machine.cpuModel} ×${machine.cores}, ${Math.round(machine.memoryBytes / GIB)} GiB`;
}

/** The history lines of one invocation; each result's own machine wins over the reporting machine's (merged shards). */
export function toHistoryEntries(
  file: ResultsFile,
  revision: Revision,
  invocationId: string,
): HistoryEntry[] {
  return file.results.map((r) => {
    const { cpuModel, cores, memoryBytes, hostname } = r.machine ?? file.machine;
    return {
      v: 1,
      invocationId,
      recordedAt: file.generatedAt,
      commit: revision.commit,
      branch: revision.branch,
      plugin: r.plugin,
      profileId: r.profileId ?? null,
      title: r.title,
      runId: r.runId ?? null,
      configHash: r.configHash ?? null,
      server: r.server,
      workload: r.workload,
      machine: { cpuModel, cores, memoryBytes },
      fingerprint: machineFingerprint({ cpuModel, cores, memoryBytes }),
      hostname,
      verdict: r.verdict,
      overheadPct: r.overheadPct,
      overheadCi95: r.overheadCi95,
      pairs: r.pairs,
      limitPct: r.limitPct,
      noiseFloorPct: r.noiseFloorPct,
      baselineTps: r.baselineTps,
      pluginTps: r.pluginTps,
      counted: historyCounted(r),
    };
  });
}

/** What history keeps of a result's counted record; null when it was not counted or its arms were not comparable. */
export function historyCounted(r: PluginResult): HistoryCounted | null {
  const c = r.counted;
  if (!c || c.figures.instructions.pct === null || c.comparable?.refused) return null;
  const f = c.figures;
  return {
    identity: c.identity,
    instructionsPct: f.instructions.pct as number,
    instructionsPctCi95: f.instructions.pctCi95,
    instructionsAddedPerTx: f.instructions.addedPerTx,
    writeCallsAddedPerTx: f.writeCalls.addedPerTx,
    logBytesNetAddedPerTx: f.logBytes.addedPerTx - f.events.addedPerTx * c.identity.hostNameBytes,
    eventsPerTx: f.events.onPerTx,
  };
}
