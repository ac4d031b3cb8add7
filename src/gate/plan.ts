// What the gate measures for each selected run, and how: pure, so the design rules are unit tested (plan.test.ts).

import type { ComparisonDesign } from '../bench/subject.ts';
import { normaliseName } from '../config/settings.ts';
import { canonicalJson, configHash } from '../runs/config-hash.ts';
import type { ResolvedRun } from '../runs/runs.ts';
import { changedOptions, expectedDesign } from './option-classes.ts';
import { type RunFingerprint, selectRuns } from './selection.ts';

export type GateItem =
  /** Measured as the runs suite measures it: plugin off against on, judged against the run's limit. */
  | { kind: 'alone'; runId: string; because: string; why: string }
  /** Base and head measured side by side, judged on ln(head/base) against AUDITBENCH_MAX_REGRESSION_PP. */
  | {
      kind: 'compare';
      runId: string;
      because: string;
      design: ComparisonDesign;
      why: string;
      /** The settings and options that differ, `name: base → head`, which also name the two configurations. */
      differences: string[];
    }
  /** Selected by nothing: its option file's text changed, but no option it sets did (a comment, the order). */
  | { kind: 'unchanged'; runId: string; why: string };

/**
 * What selects a run: its parsed configuration (an option file's options are in the profile's install steps), not
 * the option file's bytes, so a comment or a reordering selects nothing.
 */
export function fingerprintOf(run: ResolvedRun): RunFingerprint {
  return {
    hash: configHash(run.profile, { id: run.id, optionFileSha256: null }),
    limitPct: run.maxOverheadPct,
    traffic: canonicalJson(run.traffic),
  };
}

const fingerprints = (runs: readonly ResolvedRun[]) =>
  Object.fromEntries(runs.map((run) => [run.id, fingerprintOf(run)]));

const normalised = (values: Record<string, string>): Record<string, string> =>
  Object.fromEntries(Object.entries(values).map(([k, v]) => [normaliseName(k), v]));

/** `name: base → head` for every entry that differs; '(default)' where one side leaves it unset. */
export function differencesOf(base: Record<string, string>, head: Record<string, string>): string[] {
  const [b, h] = [normalised(base), normalised(head)];
  const names = [...new Set([...Object.keys(b), ...Object.keys(h)])].sort();
  return names.flatMap((name) =>
    b[name] === h[name] ? [] : [`${name}: ${b[name] ?? '(default)'} → ${h[name] ?? '(default)'}`],
  );
}

// my.cnf names carry loose- (src/config/settings.ts, toCnfOptions); the DBA wrote them without it.
const withoutLoose = (options: Record<string, string>): Record<string, string> =>
  Object.fromEntries(Object.entries(options).map(([k, v]) => [k.replace(/^loose-/, ''), v]));

// The profile without the steps a run's startup options add to its install (my.cnf edit and restart).
const procedures = (run: ResolvedRun) =>
  canonicalJson({
    name: run.profile.name,
    soname: run.profile.soname,
    install: run.profile.install.filter((step) => step.kind === 'sql'),
    enable: run.profile.enable,
    disable: run.profile.disable,
  });

/** How base and head of one run are measured against each other, or why the head is measured alone. */
export function designFor(
  base: ResolvedRun,
  head: ResolvedRun,
):
  | { kind: 'compare'; design: ComparisonDesign; why: string; differences: string[] }
  | { kind: 'alone'; why: string } {
  if (base.profile.name !== head.profile.name) {
    return { kind: 'alone', why: `the plugin changed (${base.profile.name} → ${head.profile.name})` };
  }
  if (procedures(base) !== procedures(head)) {
    return {
      kind: 'alone',
      why: "the profile's install or enable steps changed, so base and head cannot share a server",
    };
  }
  const startup = differencesOf(withoutLoose(base.startupOptions), withoutLoose(head.startupOptions));
  const settings = differencesOf(base.settings, head.settings);
  if (startup.length > 0) {
    // The server decides, once the plugin is installed (suites/gate.suite.ts); this is what the profile expects.
    const expected = expectedDesign(changedOptions(base.startupOptions, head.startupOptions), head.profile);
    return {
      kind: 'compare',
      design: expected.design,
      why: `startup options differ: ${expected.why}`,
      differences: [...startup, ...settings],
    };
  }
  if (settings.length > 0) {
    return {
      kind: 'compare',
      design: 'toggle',
      why: 'only SET GLOBAL settings differ: one toggled run with base and head as its two arms',
      differences: settings,
    };
  }
  return {
    kind: 'alone',
    why: 'base and head configure the server identically, so it is measured against its limit',
  };
}

/**
 * The gate's work: every selected run (new, changed, or all when `everyRun` says why), each compared with its base
 * version where there is one that can share the server, else measured alone against its limit.
 */
export function planGate(
  head: readonly ResolvedRun[],
  base: readonly ResolvedRun[] | null,
  everyRun: string | null,
): GateItem[] {
  const selected = everyRun
    ? head.map((run) => ({ run: run.id, because: everyRun }))
    : selectRuns(fingerprints(head), base ? fingerprints(base) : null);
  const chosen = new Set(selected.map(({ run }) => run));
  const unchanged = head.flatMap((now): GateItem[] => {
    const before = base?.find((run) => run.id === now.id);
    const [was, is] = [before?.optionFile?.sha256, now.optionFile?.sha256];
    if (chosen.has(now.id) || !was || !is || was === is) return [];
    const file = now.optionFile?.path ?? 'its option file';
    const why = `${file} changed, but no option it sets did (a comment, blank lines or their order): nothing to measure`;
    return [{ kind: 'unchanged', runId: now.id, why }];
  });
  const items = selected.map(({ run: runId, because }): GateItem => {
    const now = head.find((run) => run.id === runId);
    const before = base?.find((run) => run.id === runId);
    if (!now) throw new Error(`planGate: run ${runId} was selected but the head does not declare it`);
    if (!before) return { kind: 'alone', runId, because, why: 'no base version: measured against its limit' };
    const design = designFor(before, now);
    return design.kind === 'alone'
      ? { kind: 'alone', runId, because, why: design.why }
      : { runId, because, ...design };
  });
  return [...items, ...unchanged];
}

/** One line per item, as `gate --list` prints it. */
export function describeItem(item: GateItem): string {
  if (item.kind === 'unchanged') return `run ${item.runId}: ${item.why}`;
  if (item.kind === 'alone') return `run ${item.runId}: ${item.because}; ${item.why}`;
  return `run ${item.runId}: ${item.because} (${item.differences.join(', ')}); ${item.why}`;
}
