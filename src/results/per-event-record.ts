import { z } from 'zod';
import { trafficSchema } from '../config/projection-traffic.ts';
import { operationKinds } from './per-event-operations.ts';

const ci95 = z.tuple([z.number(), z.number()]);

/** One operation kind, plugin off against on: the added latency per operation and per audited event, and log bytes. */
export const operationCostSchema = z.object({
  kind: z.enum(operationKinds),
  /** Median plugin-off latency per operation over the pairs, µs: the scale the ratio is applied to. */
  offUs: z.number(),
  /** Median plugin-on latency per operation, µs. */
  onUs: z.number(),
  /** Latency the plugin adds per operation, µs, from the paired trimmed log-ratio (as the gate computes it). */
  addedUs: z.number(),
  addedCi95Us: ci95.nullable(),
  /** Share of one connection's throughput the plugin takes on this operation (the gate's overhead scale). */
  overheadPct: z.number(),
  overheadCi95: ci95.nullable(),
  pairs: z.number().int(),
  trimmedEachSide: z.number().int(),
  /** Audit records one operation wrote (parsed from the log growth); null when the log could not be read. */
  eventsPerOp: z.number().nullable(),
  logBytesPerOp: z.number().nullable(),
  /** addedUs / eventsPerOp, with the same interval scaled; null without events. */
  addedUsPerEvent: z.number().nullable(),
  addedCi95UsPerEvent: ci95.nullable(),
  logBytesPerEvent: z.number().nullable(),
});

export const rotationInForceSchema = z.object({ sizeBytes: z.number(), rotations: z.number().int() });

const diskSchema = z.discriminatedUnion('kind', [
  z.object({
    kind: z.literal('bounded'),
    /** Most the log and its rotated copies occupy: (rotations + 1) × size. */
    boundGb: z.number(),
    /** Days of audit history the rotated files hold at the projected rate; null when nothing is written. */
    retainedDays: z.number().nullable(),
    fitsInFreeDisk: z.boolean(),
  }),
  z.object({
    kind: z.literal('unbounded'),
    /** Days until the free space is full at the projected average rate; null when nothing is written. */
    daysUntilFull: z.number().nullable(),
  }),
]);

export const projectionSchema = z.object({
  /** Cores the plugin's added work takes at the average rate and at the peak (fractions of one core). */
  cpuCoresAvg: z.number(),
  cpuCoresPeak: z.number(),
  cpuCoresPeakCi95: ci95.nullable(),
  logGbPerDay: z.number(),
  disk: diskSchema,
  freeDiskGb: z.number(),
  /** ProjectionTraffic kinds whose cost was not measured here and so count as 0. */
  unmeasured: z.array(z.string()),
});

/** Predicted against measured throughput loss for the sysbench mix the gate ran. */
export const crossCheckSchema = z.object({
  mix: z.string(),
  statementsPerTxn: z.object({ select: z.number(), write: z.number() }),
  baselineTps: z.number(),
  /** Cores the server ran on during the sysbench measurement (1 when pinned). */
  serverCores: z.number(),
  addedUsPerTxn: z.number(),
  predictedLossPct: z.number(),
  predictedCi95: ci95.nullable(),
  measuredLossPct: z.number(),
  measuredCi95: ci95.nullable(),
  /** predicted / measured: 1 when the per-event costs explain the whole sysbench loss. */
  ratio: z.number().nullable(),
});

export const perEventSchema = z.object({
  operations: z.array(operationCostSchema),
  /** Length of one arm's tinybench run per operation, ms, and the off/on pairs measured. */
  segmentMs: z.number(),
  pairs: z.number().int(),
  wallS: z.number(),
  pinning: z.string().nullable(),
  rotation: rotationInForceSchema.nullable(),
  traffic: trafficSchema,
  projection: projectionSchema,
  /** Filled in when the same run also measured this plugin with sysbench. */
  crossCheck: crossCheckSchema.nullable().optional(),
});

export type OperationCost = z.infer<typeof operationCostSchema>;
export type RotationInForce = z.infer<typeof rotationInForceSchema>;
export type Projection = z.infer<typeof projectionSchema>;
export type CrossCheck = z.infer<typeof crossCheckSchema>;
export type PerEvent = z.infer<typeof perEventSchema>;
