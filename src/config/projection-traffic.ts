import { z } from 'zod';

const rate = (what: string) =>
  z.number().finite().min(0, `${what} must be at least 0 per second`).describe(`${what} per second`);

/**
 * A production traffic profile: what a DBA's server does per second on average, how much higher its busiest
 * minutes run, and how much disk the audit log may use. The projection multiplies the measured per-event costs by it.
 */
export const trafficSchema = z
  .object({
    /** Shown with the projection, e.g. 'default OLTP' or the DBA's server name. */
    name: z.string().min(1).default('custom'),
    /** Statements per second by kind, averaged over a day. */
    statementsPerS: z
      .object({
        /** Reads: SELECT by key or range. */
        select: rate('select statements'),
        /** Writes: UPDATE, INSERT, DELETE. */
        write: rate('write statements'),
        /** Statements the server refuses (syntax errors, missing tables, …). */
        failing: rate('failing statements'),
      })
      .strict(),
    connectionsPerS: rate('connections'),
    failedLoginsPerS: rate('failed logins').default(0),
    /** Busiest-minute rate over the daily average: CPU is projected at the peak, disk at the average. */
    peakFactor: z
      .number()
      .finite()
      .min(1, 'peakFactor must be at least 1 (the peak is never below the average)'),
    /** Free space on the audit log's filesystem, in GB (10⁹ bytes): how long it lasts when the log never rotates. */
    freeDiskGb: z.number().finite().positive('freeDiskGb must be above 0 GB'),
  })
  .strict();

export type ProjectionTraffic = z.infer<typeof trafficSchema>;
export type TrafficInput = z.input<typeof trafficSchema>;
