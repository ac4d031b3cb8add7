import { z } from 'zod';

/**
 * The one source of each closed list: env parsing, the results schema and the types all derive from these, so a
 * new server flavor, target or workload is added here once.
 */
export const serverFlavors = ['mariadb', 'mysql', 'percona'] as const;
export type ServerFlavor = (typeof serverFlavors)[number];

export const targetNames = ['local', 'container', 'external'] as const;
export type TargetName = (typeof targetNames)[number];

/** Smallest first; each has its entry in src/workload/workloads.ts. */
export const workloadNames = ['quick', 'smoke', 'standard', 'seed'] as const;
export type WorkloadName = (typeof workloadNames)[number];

/** An overhead limit, wherever it is given (env, configuration file, profile): above 0 and below 100 percent. */
export const overheadLimitPct = z.number().gt(0).lt(100);
export const overheadLimitAdvice = 'must be a number above 0 and below 100, e.g. 30';

/** The database sysbench's tables live in; the traffic's accounts get their rights on it. */
export const sysbenchDatabase = 'auditbench';
