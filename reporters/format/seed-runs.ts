import { profiles } from '../../src/profiles/index.ts';
import type { PluginResult } from '../../src/results/schema.ts';

const builtIn = new Map(Object.values(profiles).map((p) => [p.name, p]));

/**
 * A run of a built-in profile as shipped: no startup option, no option file, and the profile's own SET GLOBAL
 * values. Results that did not record their settings are never stock.
 */
export function isStockRun(r: PluginResult): boolean {
  const profile = builtIn.get(r.plugin);
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
 * One result per plugin for the seed's comparison, so a sweep of variants shows each plugin once: its stock run,
 * else its first measured run, else its first. Results keep their order.
 */
export function seedRuns(results: readonly PluginResult[]): PluginResult[] {
  const chosen = new Map<string, PluginResult>();
  for (const r of results) {
    const held = chosen.get(r.plugin);
    if (!held || rank(r) > rank(held)) chosen.set(r.plugin, r);
  }
  return results.filter((r) => chosen.get(r.plugin) === r);
}
