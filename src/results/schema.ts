import { z } from 'zod';

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
  flavor: z.enum(['mariadb', 'mysql', 'percona']),
  version: z.string(),
  target: z.enum(['local', 'container', 'external']),
});

export const runSchema = z.object({
  arm: z.enum(['off', 'on']),
  pair: z.number().int().positive(),
  tps: z.number(),
  qps: z.number(),
  latencyAvgMs: z.number(),
  latencyP95Ms: z.number(),
  logBytes: z.number().nullable(),
  /** Per-second TPS, for timelines. */
  tpsPerSecond: z.array(z.number()),
});

export const measurementSchema = z.object({
  baselineTps: z.number(),
  pluginTps: z.number(),
  overheadPct: z.number(),
  overheadCi95: z.tuple([z.number(), z.number()]).nullable(),
  perPairOverheadPct: z.array(z.number()),
  pairs: z.number().int(),
  limitPct: z.number(),
  verdict: z.enum(['pass', 'fail', 'inconclusive']),
  reason: z.string(),
  logBytes: z.number(),
  logBytesPerTxn: z.number().nullable(),
  logMbPerMin: z.number().nullable(),
  /** Settings the figures were taken under. */
  serverOptions: z.record(z.string(), z.string()),
  pluginSettings: z.record(z.string(), z.string()),
  wallS: z.number(),
  runs: z.array(runSchema),
});

/** One plugin on one server with one workload: what results.json holds per entry. */
export const pluginResultSchema = z.object({
  plugin: z.string(),
  title: z.string(),
  server: serverSchema,
  workload: z.string(),
  baselineTps: z.number().nullable(),
  pluginTps: z.number().nullable(),
  overheadPct: z.number().nullable(),
  limitPct: z.number(),
  /** pass/fail/inconclusive from the measurement; 'error' when no measurement finished. */
  verdict: z.enum(['pass', 'fail', 'inconclusive', 'error']),
  logBytesPerTxn: z.number().nullable(),
  lifecycle: z.array(lifecycleCheckSchema),
  measurement: measurementSchema.nullable(),
});

export const machineSchema = z.object({
  hostname: z.string(),
  cpuModel: z.string(),
  cores: z.number().int(),
  memoryBytes: z.number(),
  platform: z.string(),
  node: z.string(),
});

export const resultsFileSchema = z.object({
  generatedAt: z.string(),
  machine: machineSchema,
  results: z.array(pluginResultSchema),
});

export type LifecycleCheckRecord = z.infer<typeof lifecycleCheckSchema>;
export type Measurement = z.infer<typeof measurementSchema>;
export type PluginResult = z.infer<typeof pluginResultSchema>;
export type ResultsFile = z.infer<typeof resultsFileSchema>;
export type Machine = z.infer<typeof machineSchema>;
