import { z } from 'zod';

/**
 * The added load (traffic.added) in one place: its rates as the configuration takes them, and the kind of operation
 * each rate sends. The rates' and counts' types, their zeros and the rate fields a plugin's silence signs name all
 * derive from here; what one operation of a kind does, and as whom, is src/traffic/added-load.ts's.
 */

const addedRate = (field: string) =>
  z
    .number()
    .finite()
    .min(0, `${field} must be at least 0 per second`)
    .max(200, `${field} above 200/s would be the load itself`);

/** traffic.added in the configuration: any of the rates, each 0–200 per second. */
export const addedRatesSchema = z
  .strictObject({
    /** New connections (connect, one query, disconnect) as the application account. */
    connectionsPerS: addedRate('connectionsPerS'),
    /** Logins with a wrong password for the application account. */
    failedLoginsPerS: addedRate('failedLoginsPerS'),
    /** CREATE/DROP TABLE on a scratch table. */
    ddlPerS: addedRate('ddlPerS'),
    /** GRANT/REVOKE on a scratch account. */
    dclPerS: addedRate('dclPerS'),
  })
  .partial();

/** A rate field of traffic.added ('connectionsPerS'). */
export type AddedRateField = keyof z.infer<typeof addedRatesSchema>;

/** Each kind of operation the added load sends and the rate field it is sent at (every field has one: a test holds it). */
export const ADDED_KINDS = {
  connections: 'connectionsPerS',
  failedLogins: 'failedLoginsPerS',
  ddl: 'ddlPerS',
  dcl: 'dclPerS',
} as const satisfies Record<string, AddedRateField>;

export type AddedKind = keyof typeof ADDED_KINDS;
export const addedKinds = Object.keys(ADDED_KINDS) as AddedKind[];

/** traffic.added with every rate given, per second. */
export type AddedRates = Record<AddedRateField, number>;
/** What the added load sent, by kind, and the operations that failed. */
export type AddedCounts = Record<AddedKind | 'errors', number>;

export const noAddedRates = (): AddedRates =>
  Object.fromEntries(addedKinds.map((k) => [ADDED_KINDS[k], 0])) as AddedRates;

export const noAddedCounts = (): AddedCounts =>
  ({ ...Object.fromEntries(addedKinds.map((k) => [k, 0])), errors: 0 }) as AddedCounts;
