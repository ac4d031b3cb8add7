import { createHash } from 'node:crypto';
import { isDeepStrictEqual } from 'node:util';
import { type Cores, threadList } from '../config/concurrency.ts';
import { type MeasuredTraffic, mergeMeasuredTraffic } from '../config/measured-traffic.ts';
import { OptionFileError, type OptionFileSettings } from '../config/option-file.ts';
import {
  classifyOutsideOptions,
  type KeptOption,
  type LeftOutOption,
  type MovedOption,
  type OutsideOption,
} from '../config/outside-options.ts';
import type { PluginLibraries } from '../config/plugin-load.ts';
import { type RunPolicy, runPolicyOf } from '../config/policy.ts';
import type { OptionCatalogue } from '../config/server-help.ts';
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
  /**
   * The option file: its path and hash, what is not followed (`!include`), and its groups: those read, by the list of
   * groups the server reads (`serverReads`, from the binary's --help or recorded) and where that list comes from.
   */
  optionFile: {
    path: string;
    sha256: string;
    ignored: string[];
    groups: { read: string[]; serverReads: readonly string[]; from: string };
  } | null;
  /**
   * What auditbench did with the options from outside (option file, startup options, the log path settings): kept,
   * left out (groups the server does not read too), and moved into the run's data directory, each with why
   * (src/config/outside-options.ts).
   */
  outsideOptions: { kept: KeptOption[]; leftOut: LeftOutOption[]; moved: MovedOption[] };
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

/** Options auditbench drives itself for this plugin, and why: its logging switch and its name. */
function managedOptions(profile: PluginProfile): Map<string, string> {
  const managed = new Map<string, string>();
  if (profile.loggingVariable) {
    managed.set(normaliseName(profile.loggingVariable), 'auditbench switches logging on and off to measure');
  }
  if (profile.name) managed.set(normaliseName(profile.name), 'auditbench installs the plugin itself');
  return managed;
}

/** Where a run's options come from, for the lines that name them, and the server's option names. */
export interface OutsideContext {
  /** `auditbench.config.ts: runs[0]`: names the run's own fields in a line. */
  where: string;
  catalogue: OptionCatalogue | null;
  /** The libraries of the plugin directory the run's server loads from; null when there is none to look in. */
  libraries?: PluginLibraries | null;
}

/**
 * The run's option file and startup options, classified (src/config/outside-options.ts), and its settings that name
 * the plugin's log file moved the same way; the first refusal is thrown as one line.
 */
function classifyRunOptions(
  run: RunConfig,
  base: PluginProfile,
  optionFile: LoadedOptionFile | null,
  outside: OutsideContext,
): { startup: Record<string, string>; settings: Settings } & ResolvedRun['outsideOptions'] {
  const given: OutsideOption[] = [
    ...(optionFile?.parsed.lines ?? []),
    ...Object.entries(run.startupOptions ?? {}).map(([name, value]) => ({
      source: `${outside.where}.startupOptions`,
      name,
      value: displayValue(value),
    })),
  ];
  const logPathOptions = base.logPathOptions ?? [];
  const context = {
    catalogue: outside.catalogue,
    logPathOptions,
    managed: managedOptions(base),
    ownPlugin: { name: base.name, soname: base.soname },
    libraries: outside.libraries ?? null,
  };
  const classified = classifyOutsideOptions(given, context);
  // A log path given as a setting (SET GLOBAL) would write production's file just the same.
  const logSettings = Object.entries(run.settings ?? {}).filter(([name]) =>
    logPathOptions.some((option) => normaliseName(option) === normaliseName(name)),
  );
  const movedSettings = classifyOutsideOptions(
    logSettings.map(([name, value]) => ({
      source: `${outside.where}.settings`,
      name,
      value: displayValue(value),
    })),
    context,
  );
  const refusal = classified.refusals[0] ?? movedSettings.refusals[0];
  if (refusal) throw new OptionFileError(refusal);
  const others = Object.entries(run.settings ?? {}).filter(
    ([name]) => !logSettings.some(([n]) => n === name),
  );
  return {
    startup: classified.kept,
    settings: { ...Object.fromEntries(others), ...movedSettings.kept },
    kept: classified.keptWhy,
    leftOut: [...(optionFile?.parsed.groups.leftOut ?? []), ...classified.leftOut],
    moved: [...classified.moved, ...movedSettings.moved],
  };
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
  given: RunConfig,
  base: PluginProfile,
  optionFile: LoadedOptionFile | null,
  traffic: MeasuredTraffic = mergeMeasuredTraffic(undefined, undefined, null),
  outside: OutsideContext = { where: 'the configuration', catalogue: null },
): ResolvedRun {
  const ignored = [...(optionFile?.parsed.ignored ?? [])];
  const classified = classifyRunOptions(given, base, optionFile, outside);
  const startup: Settings = classified.startup;
  const run: RunConfig = { ...given, settings: classified.settings };
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
  // Measured where the configuration puts the log (server_audit_file_path=audit.log), as the lifecycle checks read it.
  const logFile = override.logFile;
  // Sent to syslog, the records are read from the run's own receiver (src/servers/syslog-receiver.ts).
  const syslogLog = override.syslog !== undefined ? base.syslogLog : undefined;
  // Kept elsewhere than the profile's file (the general log's table), the records are read from that output.
  const routedLog = base.logFor?.(plain) ?? null;
  // Neither the receiver's file nor the table rotates during a run: the completeness check's load phase claims none.
  const unrotated = syslogLog
    ? "the records go to syslog, one file of the run's own receiver"
    : routedLog
      ? `the records go to ${routedLog.formatName ?? routedLog.file}`
      : null;
  const completeness =
    unrotated && base.completeness
      ? { ...base.completeness, rotation: { kind: 'none' as const, why: unrotated } }
      : base.completeness;
  const profile: PluginProfile = {
    ...base,
    ...(logFile !== undefined && base.log.file !== null ? { log: { ...base.log, file: logFile } } : {}),
    ...(syslogLog ? { log: syslogLog } : {}),
    ...(routedLog ? { log: routedLog } : {}),
    ...(completeness ? { completeness } : {}),
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
    optionFile: optionFile ? optionFileOf(optionFile, ignored) : null,
    outsideOptions: { kept: classified.kept, leftOut: classified.leftOut, moved: classified.moved },
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

function optionFileOf(file: LoadedOptionFile, ignored: string[]): NonNullable<ResolvedRun['optionFile']> {
  const { read, serverReads } = file.parsed.groups;
  return {
    path: file.path,
    sha256: createHash('sha256').update(file.text).digest('hex'),
    ignored,
    groups: { read, serverReads: serverReads.names, from: serverReads.from },
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
