import { KEPT_WHY, keptLine, leftOutLine, movedLine } from '../config/outside-options.ts';
import type { PluginExpectations, PluginProfile } from '../plugins/profile.ts';
import type { ResolvedRun } from '../runs/runs.ts';
import { concurrencyPoints, OPEN_LOOP_PCT, openLoopPoint } from '../workload/threads.ts';
import type { Workload } from '../workload/workload.ts';

/** One configured run as `auditbench list` shows it: resolved, and whether this machine would skip it. */
export interface ListedRun {
  id: string;
  title: string;
  plugin: string;
  settings: Record<string, string>;
  startupOptions: Record<string, string>;
  /** The option file: its path, hash, lines not followed, and the groups read (by the server's own list). */
  optionFile: ResolvedRun['optionFile'];
  /** Options from outside kept, each with why (the DBA's to measure; a plugin whose library the server has). */
  kept: string[];
  /**
   * Options from outside left out (the place, network, account, other hosts, the measured plugin's own load lines,
   * groups the server does not read) and log paths moved, one line each with why.
   */
  leftOut: string[];
  moved: string[];
  accounts: { application: string; checks: string };
  /** What the measurement sends besides the accounts, as one phrase ('OLTP' alone when nothing is added). */
  load: string;
  /** Expectations this run changes from its profile's (derived from its settings or given in `expected`). */
  expectedChanges: Partial<PluginExpectations>;
  limitPct: number;
  /** What a doubtful measurement does to the run (its own fields, the configuration's top level, the defaults). */
  policy: ResolvedRun['policy'];
  /** The points it is measured at (threads, cores, the open loop), in one phrase; '' when not given. */
  concurrency: string;
  /** Why this machine would skip the run, or null when it would be measured. */
  skipped: string | null;
}

/** The expectations that differ from the base profile's, compared entry by entry. */
export function expectationChanges(
  base: PluginExpectations | null,
  resolved: PluginExpectations,
): Partial<PluginExpectations> {
  if (!base) return {};
  const changes: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(resolved)) {
    if (JSON.stringify(value) !== JSON.stringify(base[key as keyof PluginExpectations])) changes[key] = value;
  }
  return changes as Partial<PluginExpectations>;
}

export function listedRun(
  run: ResolvedRun,
  base: PluginProfile | null,
  skipped: string | null,
  concurrency = '',
): ListedRun {
  return {
    id: run.id,
    title: run.title,
    plugin: run.profile.name,
    settings: run.settings,
    startupOptions: run.startupOptions,
    optionFile: run.optionFile,
    kept: run.outsideOptions.kept.map(keptLine),
    leftOut: run.outsideOptions.leftOut.map(leftOutLine),
    moved: run.outsideOptions.moved.map(movedLine),
    accounts: run.traffic.accounts,
    load: describeLoad(run.traffic),
    expectedChanges: expectationChanges(base?.expected ?? null, run.profile.expected),
    limitPct: run.maxOverheadPct,
    policy: run.policy,
    concurrency,
    skipped,
  };
}

/**
 * The points a run is measured at, as the runs suite will measure them (`concurrencyPoints`, `openLoopPoint`), in
 * one phrase: `1, 4, 16 threads (pinned cores), then an open loop at 70% of the 16-thread baseline`.
 */
export function describeConcurrency(
  run: Pick<ResolvedRun, 'threads' | 'cores' | 'openLoop'>,
  workload: Pick<Workload, 'threads' | 'pinCpus'>,
  machine: { cpus: number; external: boolean },
): string {
  const points = concurrencyPoints(run, workload, machine);
  const cores = [...new Set(points.map((p) => p.cores))].join(', ');
  const threads = `${points.map((p) => p.threads).join(', ')} thread${points.length === 1 && points[0]?.threads === 1 ? '' : 's'} (${cores} cores)`;
  const open = openLoopPoint(run.openLoop, points);
  return open
    ? `${threads}, then an open loop at ${OPEN_LOOP_PCT}% of the ${open.threads}-thread baseline`
    : threads;
}

/** The measured load in one phrase: the script or OLTP, prepared statements off, and each added rate. */
export function describeLoad(traffic: ResolvedRun['traffic']): string {
  const parts = [traffic.script ? `sysbench script ${traffic.script.path}` : 'OLTP (oltp_read_write)'];
  if (!traffic.preparedStatements) parts.push('prepared statements off');
  const added = Object.entries(traffic.added).filter(([, perS]) => perS > 0);
  if (added.length > 0) parts.push(`plus ${added.map(([what, perS]) => `${what} ${perS}`).join(', ')}`);
  return parts.join(', ');
}

const pairs = (values: Record<string, string>): string =>
  Object.keys(values).length === 0
    ? 'none'
    : Object.entries(values)
        .map(([k, v]) => `${k}=${v}`)
        .join(', ');

/** The text `auditbench list` prints: a block per run, then what was listed and on which workload. */
export function formatListing(configPath: string, runs: ListedRun[], workloadName: string): string {
  const blocks = runs.map((run) => {
    const lines = [
      `${run.id}: ${run.title}`,
      `  plugin          ${run.plugin}`,
      `  settings        ${pairs(run.settings)}`,
      `  startup options ${pairs(run.startupOptions)}`,
    ];
    if (run.optionFile) {
      const ignored =
        run.optionFile.ignored.length > 0 ? `; ignored: ${run.optionFile.ignored.join('; ')}` : '';
      lines.push(
        `  option file     ${run.optionFile.path} (sha256 ${run.optionFile.sha256.slice(0, 12)})${ignored}`,
      );
      const { read, from } = run.optionFile.groups;
      lines.push(`  groups read     ${read.map((g) => `[${g}]`).join(' ') || 'none'} (by ${from})`);
    }
    // Options kept for a reason of their own (a plugin whose library is there); the rest are the startup options above.
    for (const line of run.kept.filter((l) => !l.endsWith(`is kept: ${KEPT_WHY}`)))
      lines.push(`  kept            ${line}`);
    for (const line of run.leftOut) lines.push(`  left out        ${line}`);
    for (const line of run.moved) lines.push(`  moved           ${line}`);
    lines.push(`  accounts        application ${run.accounts.application}, checks ${run.accounts.checks}`);
    lines.push(`  load            ${run.load}`);
    const changes = Object.entries(run.expectedChanges);
    if (changes.length > 0) {
      lines.push(`  expected        ${changes.map(([k, v]) => `${k}: ${JSON.stringify(v)}`).join(', ')}`);
    }
    if (run.concurrency) lines.push(`  points          ${run.concurrency}`);
    lines.push(`  limit           ${run.limitPct}% of baseline TPS`);
    const { inconclusive, idle, interference } = run.policy;
    lines.push(`  if doubtful     inconclusive ${inconclusive}, idle ${idle}, interference ${interference}`);
    lines.push(`  here            ${run.skipped ? `skipped: ${run.skipped}` : 'measured'}`);
    return lines.join('\n');
  });
  const skipped = runs.filter((run) => run.skipped).length;
  const skips = skipped > 0 ? `, ${skipped} skipped on this machine` : '';
  const total = `${runs.length} run(s) in ${configPath}${skips}; threads as the ${workloadName} workload runs them`;
  return `${[...blocks, total].join('\n\n')}\n`;
}
