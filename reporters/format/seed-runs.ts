import type { ProfileRegistry } from '../../src/plugins/profile.ts';
import { profiles } from '../../src/profiles/index.ts';
import type { PluginResult } from '../../src/results/schema.ts';

const builtIn: ProfileRegistry = profiles;

/**
 * A run of a built-in profile as shipped: no startup option, no option file, and the profile's own SET GLOBAL
 * values. Results that did not record their settings are never stock.
 */
export function isStockRun(r: PluginResult): boolean {
  const profile = r.profileId ? builtIn[r.profileId] : undefined;
  if (!profile || !r.settings) return false;
  const { global, startup, optionFile } = r.settings;
  const defaults = Object.entries(profile.measureSettings);
  return (
    Object.keys(startup).length === 0 &&
    optionFile === null &&
    Object.keys(global).length === defaults.length &&
    defaults.every(([name, value]) => global[name] === value)
  );
}

// A stock run first, then a measured one: a run that never measured has no figures to set beside the seed's.
const rank = (r: PluginResult): number => (isStockRun(r) ? 2 : 0) + (r.measurement ? 1 : 0);

/**
 * One result per built-in profile for the seed's comparison, so a sweep of variants shows each plugin once: its
 * stock run, else its first measured run, else its first. Results of the user's own profiles (no profileId) are
 * kept as they are. Results keep their order.
 */
export function seedRuns(results: readonly PluginResult[]): PluginResult[] {
  const chosen = new Map<string, PluginResult>();
  for (const r of results) {
    if (!r.profileId) continue;
    const held = chosen.get(r.profileId);
    if (!held || rank(r) > rank(held)) chosen.set(r.profileId, r);
  }
  return results.filter((r) => !r.profileId || chosen.get(r.profileId) === r);
}
