import { z } from 'zod';

/** The faults the phase injects, in the order it runs them. */
export const faultNames = [
  'disk-full',
  'frozen',
  'moved',
  'copytruncate',
  'read-only-dir',
  'missing-dir',
] as const;
export type FaultName = (typeof faultNames)[number];

/** What one fault did to one plugin on one server, as results.json holds it (suites/faults.suite.ts). */
export const faultRecordSchema = z.object({
  fault: z.enum(faultNames),
  /** The facts a profile can pin (FaultFacts[fault]), as observed. */
  facts: z.record(z.string(), z.union([z.string(), z.boolean()])),
  /** Expected facts the observation contradicts, each with both values; empty when it matches the profile. */
  mismatches: z.array(z.string()),
  /** Longest wait for an answer on the probe's audited connection while the fault lasted. */
  longestStallS: z.number().nullable(),
  /** sysbench's transactions per second before and while the fault lasted (Com_commit). */
  tpsBefore: z.number().nullable(),
  tpsDuring: z.number().nullable(),
  /** Probe markers the server answered during the fault, and how many of them no log file holds. */
  markersAcked: z.number().int(),
  markersLost: z.number().int(),
  /** Per window of the fault (e.g. 'after mv'), how many markers landed in which file ('nowhere': lost). */
  landed: z.record(z.string(), z.record(z.string(), z.number().int())).nullable(),
  /** The server's answer to the steps that switched logging on, for the enable-time faults. */
  answer: z.string().nullable(),
  /** New error-log lines during the fault (the first few). */
  serverSaid: z.array(z.string()),
  /** The plugin's status counters after the fault (profile.faults.statusLike). */
  counters: z.record(z.string(), z.string()),
  durationS: z.number(),
});

export type FaultRecord = z.infer<typeof faultRecordSchema>;
