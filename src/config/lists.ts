/**
 * The one source of each closed list: env parsing, the results schema and the types all derive from these, so a
 * new server flavor, target or workload is added here once.
 */
export const serverFlavors = ['mariadb', 'mysql', 'percona'] as const;
export type ServerFlavor = (typeof serverFlavors)[number];

export const targetNames = ['local', 'container', 'external'] as const;
export type TargetName = (typeof targetNames)[number];

/** Smallest first; each has its entry in src/workload/workloads.ts. */
export const workloadNames = ['smoke', 'standard', 'seed'] as const;
export type WorkloadName = (typeof workloadNames)[number];
