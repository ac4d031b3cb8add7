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

/** The receiver faults of a run sending to syslog (AUDITBENCH_FAULTS=receiver), in the order they run. */
export const receiverFaultNames = ['receiver-paused', 'receiver-killed', 'socket-removed'] as const;
export type ReceiverFaultName = (typeof receiverFaultNames)[number];

/** What the receiver faults measure beyond a disk fault's figures (src/faults/receiver-faults.ts). */
const receiverFiguresSchema = z.object({
  /** How long the fault itself lasted: the pause, the receiver's absence, the socket's. */
  faultS: z.number(),
  tpsAfter: z.number().nullable(),
  /** sysbench's per-second lines around the fault: the second's end from the fault's start, and its phase. */
  perSecond: z.array(
    z.object({ fromFaultS: z.number(), phase: z.enum(['before', 'during', 'after']), tps: z.number() }),
  ),
  /** Of the probe's answered markers: records beyond the first of an id, and first records after a higher id's. */
  duplicated: z.number().int(),
  outOfOrder: z.number().int(),
  /** From the fault's end until every answered marker had a record again; null when that did not happen in the stage. */
  recoverS: z.number().nullable(),
});

/** What one fault did to one plugin on one server, as results.json holds it (suites/faults.suite.ts). */
export const faultRecordSchema = z.object({
  fault: z.enum([...faultNames, ...receiverFaultNames]),
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
  /** A receiver fault's own figures; absent for the disk faults. */
  receiver: receiverFiguresSchema.optional(),
});

export type FaultRecord = z.infer<typeof faultRecordSchema>;
