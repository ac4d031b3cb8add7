import type { PluginProfile, ProfileRegistry, SeedPluginReference } from '../../src/plugins/profile.ts';
import { profiles } from '../../src/profiles/index.ts';
import { observedOf } from '../../src/results/aggregate.ts';
import type { PluginResult } from '../../src/results/schema.ts';
import { estimateText, fixed } from './format-numbers.ts';
import { serverLabel } from './format-summary.ts';
import { uninstallRestarts } from './opening-table.ts';
import { runIdOf } from './run-status.ts';
import type { SectionContent } from './section.ts';
import { seedReference } from './seed-reference.ts';
import { seedRuns } from './seed-runs.ts';

/** The plugins the seed measured (those whose profile carries its figures), in the seed's order. */
const seedPlugins = (
  registry: ProfileRegistry,
): { id: string; profile: PluginProfile; seed: SeedPluginReference }[] =>
  Object.entries(registry)
    .flatMap(([id, profile]) => (profile.seed ? [{ id, profile, seed: profile.seed }] : []))
    .sort((a, b) => a.seed.column - b.seed.column);

export const SEED_ROWS = [
  'TPS without a plugin',
  'TPS with the plugin',
  'throughput loss % [95% CI]',
  'log bytes per transaction',
  'log MB per minute',
  'log format',
  'rotates its log',
  'logs failed statements',
  'uninstall needs a restart',
] as const;

export interface SeedTableColumn {
  /** Whose figures: this run's result, or the seed's reference. */
  kind: 'run' | 'seed';
  heading: string;
  subheading: string;
  /** One cell per SEED_ROWS entry. */
  cells: string[];
}

export interface SeedTable {
  columns: SeedTableColumn[];
  notes: string[];
}

const lossCell = (r: PluginResult): string => estimateText(r.overheadPct, r.overheadCi95);

function rotationCell(r: PluginResult): string {
  const observed = observedOf(r, 'rotation') as { rotatedFiles?: number[] } | undefined;
  if (!Array.isArray(observed?.rotatedFiles)) return 'not checked';
  const n = observed.rotatedFiles.length;
  return n > 0 ? `yes, by size (${n} rotated files)` : 'no';
}

function failedCell(r: PluginResult): string {
  const logged = observedOf(r, 'failed-queries');
  if (!Array.isArray(logged)) return 'not checked';
  const details = r.lifecycle.find((c) => c.check === 'failed-queries')?.details as
    | { serverAnswered?: number[] }
    | undefined;
  const answered = details?.serverAnswered ?? logged;
  const missed = answered.filter((code) => !logged.includes(code));
  if (logged.length === 0) return `no (${answered.join(', ')} not logged)`;
  return missed.length === 0
    ? `yes (${logged.join(', ')})`
    : `some: ${logged.join(', ')}; not ${missed.join(', ')}`;
}

function uninstallCell(r: PluginResult, profile: PluginProfile): string {
  const restarts = uninstallRestarts(r);
  if (!restarts) return 'not checked';
  const entry = r.lifecycle.find((c) => c.check === 'uninstall');
  // A procedure cut short by a crash answered fewer steps than it has: count the profile's restarts too.
  const steps = Math.max(restarts.steps, profile.uninstall.filter((s) => s.kind === 'restart').length);
  const crashed = (entry?.observed as { crashed?: boolean } | undefined)?.crashed === true;
  const how = steps > 0 ? ` (${steps} in the procedure)` : '';
  const findings = crashed ? '; crashed the server' : entry?.ok ? '' : '; see findings';
  return `${restarts.needs || steps > 0 ? 'yes' : 'no'}${how}${findings}`;
}

function runColumn(r: PluginResult, profile: PluginProfile): SeedTableColumn {
  return {
    kind: 'run',
    heading: runIdOf(r),
    subheading: `this run: ${serverLabel(r)}, ${r.workload}`,
    cells: [
      fixed(r.baselineTps),
      fixed(r.pluginTps),
      lossCell(r),
      fixed(r.logBytesPerTxn, 0),
      fixed(r.measurement?.logMbPerMin),
      profile.log.format === null ? 'none' : (profile.log.formatName ?? profile.log.format),
      rotationCell(r),
      failedCell(r),
      uninstallCell(r, profile),
    ],
  };
}

export const NOT_SUPPLIED = 'not measured here (no library supplied)';

function notSuppliedColumn(profile: PluginProfile): SeedTableColumn {
  return { kind: 'run', heading: profile.title, subheading: 'this run', cells: [NOT_SUPPLIED] };
}

function seedColumn(seed: SeedPluginReference): SeedTableColumn {
  const { baseline, runMinutes } = seedReference;
  return {
    kind: 'seed',
    heading: seed.label,
    subheading: 'seed, for reference',
    cells: [
      fixed(baseline.tps),
      fixed(seed.tps),
      `${fixed((1 - seed.tps / baseline.tps) * 100)} (one run)`,
      `≈${fixed(seed.logBytesTotal / seed.transactions, 0)}`,
      `≈${fixed(seed.logBytesTotal / 1e6 / runMinutes)}`,
      seed.logFormat,
      seed.rotation,
      seed.logsFailedStatements,
      seed.uninstallNeedsRestart,
    ],
  };
}

function baselineNote(runs: PluginResult[]): string[] {
  const measured = runs.filter((r) => r.baselineTps !== null);
  if (measured.length < 2) return [];
  const distinct = new Set(measured.map((r) => r.baselineTps));
  if (distinct.size === 1) return ['Every column of this run was measured against the same baseline.'];
  const each = measured.map((r) => `${runIdOf(r)} ${fixed(r.baselineTps)}`).join(', ');
  return [
    `Baselines differ: each column's "TPS without a plugin" is the plugin-off arm of its own measurement (${each}); compare losses, not TPS, across columns.`,
  ];
}

/** What the lifecycle checks of one result found: each mismatch with the profile, or that all matched. */
export function lifecycleFindings(r: PluginResult): string[] {
  if (r.lifecycle.length === 0) return [`${runIdOf(r)}: no lifecycle check recorded.`];
  const failed = r.lifecycle.filter((c) => !c.ok);
  // A crash the profile expects passes its check, and is still the finding a DBA must read first.
  const crashes = r.lifecycle.flatMap((c) => {
    const crash = (c.details as { crash?: string | null } | undefined)?.crash;
    return typeof crash === 'string'
      ? [
          `${runIdOf(r)}: ${c.check} crashed the server${c.ok ? ', as the profile records' : ''}: ${crash.split('\n')[0]}`,
        ]
      : [];
  });
  // A check that reports the plugin's behaviour (log-integrity) passes either way, and still shows what it found.
  const reported = r.lifecycle.flatMap((c) => {
    const finding = (c.details as { finding?: string | null } | undefined)?.finding;
    return typeof finding === 'string' ? [`${runIdOf(r)}: ${c.check}: ${finding}`] : [];
  });
  const found = [...crashes, ...reported];
  if (failed.length === 0)
    return [...found, `${runIdOf(r)}: all ${r.lifecycle.length} lifecycle checks as the profile expects.`];
  return [
    ...found,
    ...failed.map((c) => {
      const restartError = (c.details as { restartError?: string | null } | undefined)?.restartError;
      const why = restartError ? `; restart: ${restartError.split('\n')[0]}` : '';
      return `${runIdOf(r)}: ${c.check} expected ${JSON.stringify(c.expected)}, observed ${JSON.stringify(c.observed)}${why}`;
    }),
  ];
}

/**
 * The seed's comparison in its own shape, one column per result of server_audit or McAfee AUDIT and the seed's
 * figures beside each plugin's; null unless at least one of them was measured in this run.
 */
export function seedTable(
  results: readonly PluginResult[],
  registry: ProfileRegistry = profiles,
): SeedTable | null {
  const picked = seedPlugins(registry).map((p) => ({
    ...p,
    runs: results.filter((r) => r.profileId === p.id),
  }));
  const runs = picked.flatMap((p) => p.runs);
  if (!runs.some((r) => r.measurement !== null)) return null;
  // A plugin that needs a supplied library and has no result here still shows the seed's figures, and why not ours.
  const shown = picked.filter((p) => p.runs.length > 0 || p.profile.supply !== undefined);
  const columns = shown.flatMap((p) => [
    ...(p.runs.length > 0 ? p.runs.map((r) => runColumn(r, p.profile)) : [notSuppliedColumn(p.profile)]),
    seedColumn(p.seed),
  ]);
  const seedLogs = shown
    .map((p) => `${p.seed.logTotalAsGiven} for ${p.seed.transactions.toLocaleString('en-US')} transactions`)
    .join(', ');
  return {
    columns,
    notes: [
      ...baselineNote(runs),
      `Seed figures are for reference, not assertions: ${seedReference.source}, on ${seedReference.server}, ${seedReference.workload}.`,
      `Its log rates divide its totals (${seedLogs}, read as decimal units) by its transactions and ${seedReference.runMinutes} minutes.`,
    ],
  };
}

/** Whether the run measured a plugin the seed measured, so its comparison shows. */
export const hasSeedTable = (results: readonly PluginResult[]): boolean =>
  seedTable(seedRuns(results)) !== null;

/** The seed's comparison as the reports' table: a row per measure, a column per result and per seed figure. */
export function seedContent(results: readonly PluginResult[]): SectionContent {
  const table = seedTable(seedRuns(results));
  if (!table) return {};
  return {
    tables: [
      {
        head: [
          { text: '' },
          ...table.columns.map((c) => ({
            text: c.heading,
            note: c.subheading,
            ...(c.kind === 'seed' && { className: 'seed' }),
          })),
        ],
        rows: SEED_ROWS.map((label, row) => [label, ...table.columns.map((c) => c.cells[row] ?? '–')]),
        notes: table.notes,
      },
    ],
  };
}

/** What every run's lifecycle checks found: each mismatch with the profile, or that all matched. */
export const findingsContent = (results: readonly PluginResult[]): SectionContent => ({
  list: results.flatMap(lifecycleFindings),
});
