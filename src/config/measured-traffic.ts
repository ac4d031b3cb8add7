import { z } from 'zod';
import { type AddedRates, addedRatesSchema, noAddedRates } from './added-traffic.ts';

/**
 * What the measurement sends to the server: which accounts log in, what is added to the OLTP load, or the DBA's own
 * sysbench script instead of it. It is the measured half of `traffic` in auditbench.config.ts (the other half, the
 * production rates, feeds the per-event projection), given at the top level for every run and overridden per run.
 */

/** A MySQL account name as auditbench creates it ('name'@'%' for TCP, 'name'@'localhost' for the socket). */
const accountName = z
  .string()
  .regex(
    /^[A-Za-z0-9_$.-]{1,32}$/,
    'must be 1–32 letters, digits, _ $ . or - (an account auditbench creates)',
  );

export const measuredTrafficSchema = z
  .strictObject({
    /**
     * The accounts the traffic logs in as; auditbench creates them for the run. `application` is sysbench's (only
     * the privileges sysbench needs on its database), `checks` the lifecycle checks' and the markers'. Name them as
     * in production so that user filters (server_audit_incl_users, audit_whitelist_users) apply as they will there;
     * 'root' asks for the server's root account instead.
     */
    accounts: z.strictObject({ application: accountName, checks: accountName }).partial(),
    /** Added to the load at these rates, within the same toggled measurement (the kinds: added-traffic.ts). */
    added: addedRatesSchema,
    /**
     * Your own sysbench Lua script instead of oltp_read_write, relative to the configuration file: its `prepare`
     * builds its schema, its report must have sysbench's standard form.
     */
    script: z.string().min(1),
    /** Server-side prepared statements (sysbench's default, --db-ps-mode=auto) or plain text statements. */
    preparedStatements: z.boolean(),
  })
  .partial();

export type MeasuredTrafficInput = z.input<typeof measuredTrafficSchema>;

/** The measured traffic of one run, defaults applied. */
export interface MeasuredTraffic {
  accounts: { application: string; checks: string };
  added: AddedRates;
  /** The DBA's script: its path as given (relative to the configuration) and its content's hash, or null for OLTP. */
  script: { path: string; sha256: string } | null;
  preparedStatements: boolean;
}

export const DEFAULT_ACCOUNTS = { application: 'auditbench_app', checks: 'auditbench_checks' } as const;

/** The run's traffic: its own fields over the configuration's, over the defaults (objects merge field by field). */
export function mergeMeasuredTraffic(
  top: MeasuredTrafficInput | undefined,
  run: MeasuredTrafficInput | undefined,
  script: { path: string; sha256: string } | null,
): MeasuredTraffic {
  return {
    accounts: { ...DEFAULT_ACCOUNTS, ...top?.accounts, ...run?.accounts },
    added: { ...noAddedRates(), ...top?.added, ...run?.added },
    script,
    preparedStatements: run?.preparedStatements ?? top?.preparedStatements ?? true,
  };
}

/** True when the run's traffic is today's default (OLTP, nothing added): its configuration hash stays as it was. */
export const isDefaultTraffic = (t: MeasuredTraffic): boolean =>
  t.accounts.application === DEFAULT_ACCOUNTS.application &&
  t.accounts.checks === DEFAULT_ACCOUNTS.checks &&
  Object.values(t.added).every((v) => v === 0) &&
  t.script === null &&
  t.preparedStatements;
