import { createHash } from 'node:crypto';
import { isDefaultTraffic, type MeasuredTraffic } from '../config/measured-traffic.ts';
import type { PluginProfile } from '../plugins/profile.ts';

/** The parts of a profile that change what is measured; titles, log readers and limits are left out on purpose. */
export function effectiveConfiguration(profile: PluginProfile) {
  return {
    name: profile.name,
    soname: profile.soname,
    install: profile.install,
    enable: profile.enable,
    disable: profile.disable,
    measureSettings: profile.measureSettings,
    expected: profile.expected,
  };
}

/** JSON with object keys sorted at every level, so key order in a profile file never changes the hash. */
export function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    const entries = Object.entries(value)
      .filter(([, v]) => v !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonicalJson(v)}`).join(',')}}`;
  }
  return JSON.stringify(value);
}

/**
 * A short, stable hash of the plugin's effective configuration: history entries with equal hashes measured the
 * same thing, so a change of overhead between them is the code's (or the server's), not the profile's.
 */
export function configHash(
  profile: PluginProfile,
  run?: {
    id: string;
    optionFileSha256: string | null;
    traffic?: MeasuredTraffic;
    /** A point other than the workload's own threads and cores; today's point leaves it out (and today's hash). */
    concurrency?: { threads: number; cores: string };
    /** An open-loop point's rate as a share of the baseline (src/workload/threads.ts). */
    openLoopPct?: number;
  },
): string {
  // A run's option file is hashed by its content for the history (an edited comment starts a new identity); the PR
  // gate passes null and selects by the parsed options its install steps carry (src/gate/plan.ts, fingerprintOf).
  // Its traffic (accounts, added rates, script content, prepared statements) too; default traffic leaves today's hash.
  const traffic = run?.traffic && !isDefaultTraffic(run.traffic) ? { traffic: run.traffic } : {};
  const concurrency = run?.concurrency ? { concurrency: run.concurrency } : {};
  const openLoop = run?.openLoopPct === undefined ? {} : { openLoopPct: run.openLoopPct };
  const extra = run
    ? { runId: run.id, optionFile: run.optionFileSha256, ...traffic, ...concurrency, ...openLoop }
    : {};
  const digest = createHash('sha256').update(canonicalJson({ ...effectiveConfiguration(profile), ...extra }));
  return digest.digest('hex').slice(0, 12);
}
