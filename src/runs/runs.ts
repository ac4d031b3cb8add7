import { createHash } from 'node:crypto';
import { isDeepStrictEqual } from 'node:util';
import { type Cores, threadList } from '../config/concurrency.ts';
import { type MeasuredTraffic, mergeMeasuredTraffic } from '../config/measured-traffic.ts';
import type { OptionFileSettings } from '../config/option-file.ts';
import { type RunPolicy, runPolicyOf } from '../config/policy.ts';
import {
  displayValue,
  normaliseName,
  type Settings,
  toCnfOptions,
  toSqlLiterals,
} from '../config/settings.ts';
import type { PluginExpectations, PluginProfile } from '../plugins/profile.ts';
import type { Step } from '../plugins/steps.ts';
import { unauditedTrafficLine } from '../plugins/user-filter.ts';
import type { OptionFileReference, RunConfig } from './define-config.ts';

/** One run of the configuration, resolved: the profile as configured, ready for the suite. */
export interface ResolvedRun {
  /** The run's one id: results, history, the gate and `list` key on it. */
  id: string;
  /**
   * The built-in profile the run starts from, by its id in the registry (the configuration's `plugin:
   * 'server_audit'`); null when the configuration hands in a profile object of its own.
   */
  profileId: string | null;
  title: string;
  /** The run's settings merged into measureSettings, startup options into install, expectations overridden. */
  profile: PluginProfile;
  /** SET GLOBAL values as applied (SQL literals), profile defaults included. */
  settings: Record<string, string>;
  /** my.cnf options, the option file's included, as written (loose- prefixed). */
  startupOptions: Record<string, string>;
  optionFile: { path: string; sha256: string; ignored: string[] } | null;
  /** The run's limit: its own, else the configuration's top-level `maxOverheadPct`, else the profile's. */
  maxOverheadPct: number;
  /** What a doubtful measurement does to the run: its own fields, else the top level's, else fail, fail, warn. */
  policy: RunPolicy;
  /** The run's limit on the p99 latency change in percent; absent when it sets none. Not hashed, like limits. */
  maxP99IncreasePct?: number;
  /** What the measurement sends: accounts, added rates, the DBA's script (configuration's `traffic`, then the run's). */
  traffic: MeasuredTraffic;
  /**
   * Whose events the plugin logs under the run's settings (its user filter, e.g. `server_audit_incl_users=app`), and
   * the one line that fails the run when the filter audits none of the measured traffic's accounts; null when the
   * plugin has no user filter set.
   */
  userFilter: {
    setting: string;
    audited: { application: boolean; checks: boolean };
    refusal: string | null;
    /** Whether the filter lets an account through: the completeness markers' own accounts are judged by it too. */
    audits(user: string): boolean;
  } | null;
  /**
   * The run's thread counts (a sweep when more than one) and cores, its own or the top level's; null leaves them to
   * the workload.
   */
  threads: number[] | null;
  cores: Cores | null;
  /** Whether an open-loop point follows the others; null leaves it to the default (on for a sweep). */
  openLoop: boolean | null;
}

/** A loaded option file: its path as given, its text (hashed into the run's configuration) and what it holds. */
export interface LoadedOptionFile {
  path: string;
  text: string;
  parsed: OptionFileSettings;
}

export const RUN_ID = /^[a-z0-9][a-z0-9._-]{0,63}$/;

/** Settings from a DBA's option file that auditbench drives itself and so leaves out. */
function managedBy(profile: PluginProfile, name: string): string | null {
  const key = normaliseName(name);
  if (/^(plugin_load|plugin_load_add|plugin_maturity)$/.test(key))
    return 'auditbench installs the plugin itself';
  if (profile.loggingVariable && key === profile.loggingVariable.toLowerCase()) {
    return 'auditbench switches logging on and off to measure';
  }
  if (profile.name && key === profile.name.toLowerCase()) return 'auditbench installs the plugin itself';
  return null;
}

/** What a setting reads as for expectation rules: SQL literals unquoted, names normalised. */
function plainValues(literals: Record<string, string>, ...more: Settings[]): Record<string, string> {
  const plain: Record<string, string> = {};
  for (const [k, v] of Object.entries(literals)) plain[normaliseName(k)] = v.replace(/^'(.*)'$/s, '$1');
  for (const settings of more) {
    for (const [k, v] of Object.entries(settings)) plain[normaliseName(k)] = displayValue(v);
  }
  return plain;
}

const titleOf = (profile: PluginProfile, shown: Record<string, string>): string => {
  const parts = Object.entries(shown).map(([k, v]) => `${k}=${v === '' ? "''" : v}`);
  return parts.length > 0 ? `${profile.title} (${parts.join(', ')})` : profile.title;
};

/**
 * Applies one run's configuration to its profile. `base` is the built-in or custom profile; `optionFile` the run's
 * option file, already read.
 */
export function resolveRun(
  run: RunConfig,
  base: PluginProfile,
  optionFile: LoadedOptionFile | null,
  traffic: MeasuredTraffic = mergeMeasuredTraffic(undefined, undefined, null),
): ResolvedRun {
  const fromFile: Record<string, string> = {};
  const ignored = [...(optionFile?.parsed.ignored ?? [])];
  for (const [name, value] of Object.entries(optionFile?.parsed.options ?? {})) {
    const why = managedBy(base, name);
    if (why) ignored.push(`${name}: ${why}`);
    else fromFile[name] = value;
  }
  const startup: Settings = { ...fromFile, ...run.startupOptions };
  // A startup option wins over the profile's default SET GLOBAL of the same variable, which would undo it.
  const startupNames = new Set(Object.keys(startup).map(normaliseName));
  const defaults = Object.fromEntries(
    Object.entries(base.measureSettings).filter(([name]) => !startupNames.has(normaliseName(name))),
  );
  const settings = { ...defaults, ...toSqlLiterals(run.settings ?? {}) };
  const plain = plainValues(defaults, startup, run.settings ?? {});
  const derived = base.expectationsFor?.(plain, traffic) ?? {};
  const filter = base.userFilter?.(plain) ?? null;
  const override: Partial<PluginExpectations> = { ...derived, ...run.expected };
  const startupOptions = toCnfOptions(startup);
  // Written to my.cnf before the install, with a restart to take effect. Removed at the uninstall, before the
  // profile's own steps (which may stop the server, as McAfee's does): my.cnf keeps them across the restart between
  // runs, so the next run on the same server would start with them (a 128M-pool run after a 512M one did).
  const written = Object.keys(startupOptions);
  const configureStartup: Step[] =
    written.length > 0 ? [{ kind: 'config', edit: { set: startupOptions } }, { kind: 'restart' }] : [];
  const removeStartup: Step[] = written.length > 0 ? [{ kind: 'config', edit: { unset: written } }] : [];
  const expectedOn = Object.fromEntries(
    Object.entries(base.expectedOn ?? {}).map(([flavor, partial]) => [flavor, { ...partial, ...override }]),
  );
  const profile: PluginProfile = {
    ...base,
    install: [...configureStartup, ...base.install],
    uninstall: [...removeStartup, ...base.uninstall],
    enable: base.enableFor?.(plain) ?? base.enable,
    measureSettings: settings,
    expected: { ...base.expected, ...override },
    ...(base.expectedOn ? { expectedOn } : {}),
  };
  const shown = { ...plainValues({}, startup), ...plainValues({}, run.settings ?? {}) };
  return {
    id: run.id ?? defaultRunId(run.plugin, base),
    profileId: typeof run.plugin === 'string' ? run.plugin : null,
    title: run.title ?? titleOf(base, shown),
    profile,
    settings,
    startupOptions,
    optionFile: optionFile
      ? { path: optionFile.path, sha256: createHash('sha256').update(optionFile.text).digest('hex'), ignored }
      : null,
    maxOverheadPct: run.maxOverheadPct ?? base.maxOverheadPct,
    policy: runPolicyOf(run),
    ...(run.maxP99IncreasePct !== undefined && { maxP99IncreasePct: run.maxP99IncreasePct }),
    traffic,
    threads: run.threads === undefined ? null : threadList(run.threads),
    cores: run.cores ?? null,
    openLoop: run.openLoop ?? null,
    userFilter: filter && {
      setting: filter.setting,
      audited: {
        application: filter.audits(traffic.accounts.application),
        checks: filter.audits(traffic.accounts.checks),
      },
      refusal: unauditedTrafficLine(filter, traffic),
      audits: filter.audits,
    },
  };
}

export function defaultRunId(plugin: RunConfig['plugin'], base: PluginProfile): string {
  const name = typeof plugin === 'string' ? plugin : base.name;
  return name.toLowerCase().replace(/[^a-z0-9._-]+/g, '_');
}

export type { OptionFileReference };

/**
 * The runs of `runs` that none of `others` measures as well: a run is measured twice when another run has the same
 * plugin, settings, startup options, option file, traffic and cores, and its threads include the one point this
 * run measures (its own single count, or `defaultThreads` when it sets none). A sweep over 1, 4 and 16 threads
 * measures the stock run at 4.
 */
export function notMeasuredBy(
  runs: ResolvedRun[],
  others: ResolvedRun[],
  defaultThreads: number,
): ResolvedRun[] {
  const point = (run: ResolvedRun): number | null =>
    run.threads === null ? defaultThreads : run.threads.length === 1 ? (run.threads[0] ?? null) : null;
  const same = (a: ResolvedRun, b: ResolvedRun): boolean =>
    a.profile.name === b.profile.name &&
    a.cores === b.cores &&
    (a.optionFile?.sha256 ?? null) === (b.optionFile?.sha256 ?? null) &&
    isDeepStrictEqual(a.settings, b.settings) &&
    isDeepStrictEqual(a.startupOptions, b.startupOptions) &&
    isDeepStrictEqual(a.traffic, b.traffic);
  return runs.filter((run) => {
    const at = point(run);
    return !others.some(
      (other) => same(run, other) && at !== null && (other.threads ?? [defaultThreads]).includes(at),
    );
  });
}
