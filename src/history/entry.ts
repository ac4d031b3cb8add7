import { z } from 'zod';
import { type Machine, type ResultsFile, serverSchema } from '../results/schema.ts';

/** One line of history.jsonl: one plugin × server × workload result of one run, with where and what it ran. */
export const historyEntrySchema = z.object({
  v: z.literal(1),
  /** Shared by every entry of one run. */
  runId: z.string(),
  recordedAt: z.string(),
  commit: z.string(),
  branch: z.string(),
  plugin: z.string(),
  title: z.string(),
  /** The configuration run (auditbench.config.ts) the result belongs to; comparisons match on it. Absent before. */
  configRun: z.string().nullable().default(null),
  /** Hash of the profile's effective configuration (src/history/config-hash.ts); null when the suite gave none. */
  configHash: z.string().nullable(),
  server: serverSchema,
  workload: z.string(),
  machine: z.object({ cpuModel: z.string(), cores: z.number().int(), memoryBytes: z.number() }),
  /** CPU model, cores and memory in one string: figures compare only between equal fingerprints. */
  fingerprint: z.string(),
  /** The machine's hostname: equal fingerprints on two VMs still measure differently. Absent before; null unknown. */
  hostname: z.string().nullable().default(null),
  verdict: z.enum(['pass', 'fail', 'inconclusive', 'error']),
  overheadPct: z.number().nullable(),
  overheadCi95: z.tuple([z.number(), z.number()]).nullable(),
  pairs: z.number().int(),
  limitPct: z.number(),
  noiseFloorPct: z.number().nullable(),
  baselineTps: z.number().nullable(),
  pluginTps: z.number().nullable(),
});

export type HistoryEntry = z.infer<typeof historyEntrySchema>;

/** Where a run's code came from. */
export interface Revision {
  commit: string;
  branch: string;
}

const GIB = 1024 ** 3;

/** Memory is rounded to whole GiB: the kernel reports a few MB more or less across reboots of the same machine. */
export function machineFingerprint(machine: Pick<Machine, 'cpuModel' | 'cores' | 'memoryBytes'>): string {
  return `${machine.cpuModel} ×${machine.cores}, ${Math.round(machine.memoryBytes / GIB)} GiB`;
}

/** The history lines of one run; each result's own machine wins over the reporting machine's (merged shards). */
export function toHistoryEntries(file: ResultsFile, revision: Revision, runId: string): HistoryEntry[] {
  return file.results.map((r) => {
    const { cpuModel, cores, memoryBytes, hostname } = r.machine ?? file.machine;
    return {
      v: 1,
      runId,
      recordedAt: file.generatedAt,
      commit: revision.commit,
      branch: revision.branch,
      plugin: r.plugin,
      title: r.title,
      configRun: r.runId ?? null,
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
    };
  });
}
