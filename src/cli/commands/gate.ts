// `auditbench gate [--list] [--base <ref>]`: selects what a branch changed and measures it, base beside head. The
// engine (selection, plan, arms, verdict, git) is src/gate/; this is its command, so src/gate never imports the CLI.
import { appendFile, mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { type Environment, loadEnvironment } from '../../config/env.ts';
import { describeItem } from '../../gate/plan.ts';
import { type GatePlanFile, readVerdicts } from '../../gate/plan-file.ts';
import { type GateSelection, selectForGate } from '../../gate/select.ts';
import type { Selection } from '../../gate/selection.ts';
import { formatGateSummary } from '../../gate/summary.ts';
import { gateMark, verdictLine } from '../../gate/verdict.ts';
import { HISTORY_FILE, readHistory } from '../../history/history-store.ts';
import { reportPath } from '../../results/safe-path.ts';
import { loadPolicy } from '../../runs/load-runs.ts';
import { parseOwnArgs, refuse } from '../bad-args.ts';
import type { CliContext } from '../context.ts';
import { vitestArgsProblem } from '../vitest-args.ts';
import { setupAndRunVitest } from '../vitest-run.ts';

export type GateContext = CliContext;

export const gateUsage = `usage: auditbench gate [--list] [--base <ref>] [-- vitest args]

Diffs the git repository you run it in against its base branch and measures what the change needs:
new runs against their limit; changed runs base beside head, in one invocation on one server
(a toggled run for what the server switches with SET GLOBAL: settings, and option-file options it
reports dynamic and global; separate runs for session-scope ones; ABBA runs with restarts for the
rest, e.g. read-only options, or any on MySQL), failing when the head's loss against the base is
surely above the allowed regression: AUDITBENCH_MAX_REGRESSION_PP when set, else the configuration's
maxRegressionPp, else 5 points. An interval that still straddles it once the gate's budget is spent
fails too, unless AUDITBENCH_GATE_INCONCLUSIVE=pass (or inconclusive: 'pass' in the configuration).
The closing lines say which design and why.

  --list         print the selection and its reasons, measure nothing
  --base <ref>   the branch to diff against (default: origin/HEAD's branch, else main, else master;
                 AUDITBENCH_BASE_REF when set)
  -h, --help     this text
`;

/**
 * Why the gate will not run under this GitHub event, or null. pull_request_target runs with the base repository's
 * token and checks out the base, so the gate would compare the base with itself and pass whatever the branch does.
 */
export function refusedEvent(eventName: string | undefined): string | null {
  if (eventName !== 'pull_request_target') return null;
  return "auditbench gate: GITHUB_EVENT_NAME is pull_request_target, which runs with the base repository's token and, with its default checkout, compares the base with itself: trigger the workflow on pull_request instead (with permissions: contents: read)";
}

/** The workload the gate measures on: AUDITBENCH_WORKLOAD, else smoke. */
const gateWorkload = (env: CliContext['env']): string => env.AUDITBENCH_WORKLOAD || 'smoke';

/**
 * What an interval that still straddles the allowed regression, once the gate's budget is spent, does to the gate:
 * AUDITBENCH_GATE_INCONCLUSIVE (CI's say, and a line says so) over the configuration's `inconclusive`, whose default
 * is 'fail' on every workload, quick included: a gate that passes what it could not decide lets through the costs it
 * exists to stop (docs/gate.md).
 */
export function gateInconclusive(
  config: Pick<Environment, 'gateInconclusive'>,
  fromFile: 'fail' | 'pass',
  say: (line: string) => void,
): 'fail' | 'pass' {
  if (config.gateInconclusive === null) return fromFile;
  if (config.gateInconclusive !== fromFile)
    say(
      `auditbench gate: AUDITBENCH_GATE_INCONCLUSIVE=${config.gateInconclusive} is used over the configuration's inconclusive ('${fromFile}')`,
    );
  return config.gateInconclusive;
}

/** The gate's allowed regression when AUDITBENCH_MAX_REGRESSION_PP is unset: a gate that gates nothing is no gate. */
export const DEFAULT_MAX_REGRESSION_PP = 5;

function describeSuites(selection: Selection | null): string[] {
  if (selection === null || selection.kind === 'none') return [];
  if (selection.kind === 'all') {
    const [first, ...more] = selection.because;
    return [`every suite: harness changed (${first}${more.length > 0 ? ` and ${more.length} more` : ''})`];
  }
  return selection.suites.map(({ suite, because }) => `${suite}: ${because.join(', ')} changed`);
}

export function describeSelection(selection: GateSelection, configShown: string): string[] {
  const { base, changed, items } = selection;
  const runs = items.length === 0 ? [`no run of ${configShown} changed`] : items.map(describeItem);
  return [
    `auditbench gate: ${changed.length} file(s) changed since ${base.ref} (${base.mergeBase.slice(0, 7)})`,
    ...[...describeSuites(selection.suites), ...selection.notes, ...runs].map((line) => `  ${line}`),
  ];
}

/** `gate`'s own options before `--`, Vitest's after it (checked by Vitest's own parser); a stray argument is refused. */
async function parseGateArgs(argv: string[]) {
  const end = argv.indexOf('--');
  const parsed = parseOwnArgs(
    end === -1 ? argv : argv.slice(0, end),
    { list: { type: 'boolean' }, base: { type: 'string' }, help: { type: 'boolean', short: 'h' } },
    { positionalHint: " (the base branch is --base <ref>; Vitest's arguments go after --)" },
  );
  if (!parsed.ok) return parsed;
  const vitestArgs = end === -1 ? [] : argv.slice(end + 1);
  const problem = parsed.values.help ? null : await vitestArgsProblem(vitestArgs);
  return problem ? { ok: false as const, problem } : { ...parsed, vitestArgs };
}

export async function runGate(argv: string[], context: GateContext): Promise<number> {
  const parsed = await parseGateArgs(argv);
  if (!parsed.ok) return refuse(context, 'gate', parsed.problem);
  const { values, vitestArgs } = parsed;
  if (values.help) {
    context.stdout(gateUsage);
    return 0;
  }
  const event = refusedEvent(context.env.GITHUB_EVENT_NAME);
  if (event) throw new Error(event);
  const given = values.base
    ? { ref: values.base, from: '--base' }
    : context.env.AUDITBENCH_BASE_REF
      ? { ref: context.env.AUDITBENCH_BASE_REF, from: 'AUDITBENCH_BASE_REF' }
      : null;
  const configPath = context.env.AUDITBENCH_CONFIG ?? 'auditbench.config.ts';
  // Every setting is checked up front, as one line naming it (src/config/env.ts).
  const config = loadEnvironment(context.env);
  // gate.md is written after the measurement: a symbolic link in its way is refused now, not after the run.
  const gateMd = reportPath(path.resolve(context.userDir, config.reportDir), 'gate.md');
  const linked = await gateMd.then(
    () => null,
    (error: Error) => error.message,
  );
  if (linked) return refuse(context, 'gate', linked);
  // The user's configuration, where they run the command (the CLI itself runs in the package's folder).
  const policy = await loadPolicy(
    { ...config, configPath: path.resolve(context.userDir, configPath) },
    { say: (line) => context.stdout(`${line}\n`) },
  );
  const allowedPp = policy.history.maxRegressionPp ?? DEFAULT_MAX_REGRESSION_PP;
  const selection = await selectForGate({
    userDir: context.userDir,
    packageDir: context.packageDir,
    base: given,
    configPath,
  });
  try {
    const described = describeSelection(selection, path.relative(context.userDir, selection.headConfig));
    context.stdout(`${described.join('\n')}\n`);
    if (values.list) return 0;
    const measured = await measure(
      selection,
      vitestArgs,
      {
        allowedPp,
        inconclusive: gateInconclusive(config, policy.run.inconclusive, (line) =>
          context.stdout(`${line}\n`),
        ),
        maxCountedRisePp: policy.history.maxCountedRisePp,
      },
      context,
    );
    await writeSummary({ selection, described, measured }, config, context);
    return measured.exitCode ?? 0;
  } finally {
    await selection.checkout?.[Symbol.asyncDispose]();
  }
}

/** What the measurement ended with: Vitest's exit code (null: nothing was measured) and each verdict's closing line. */
interface Measured {
  exitCode: number | null;
  verdicts: { mark: string; line: string }[];
}

/** The suites the selection needs, with the comparisons handed to suites/gate.suite.ts in a plan file. */
async function measure(
  selection: GateSelection,
  vitestArgs: string[],
  {
    allowedPp,
    inconclusive,
    maxCountedRisePp,
  }: { allowedPp: number; inconclusive: 'fail' | 'pass'; maxCountedRisePp: number },
  context: GateContext,
): Promise<Measured> {
  const comparisons = selection.items.flatMap((item) => (item.kind === 'compare' ? [item] : []));
  const alone = selection.items.filter((item) => item.kind === 'alone');
  const suites = selection.suites;
  // No file named runs every suite: a harness change in auditbench's own clone.
  const files =
    suites?.kind === 'all'
      ? []
      : [
          ...(suites?.kind === 'some' ? suites.suites.map((s) => s.suite) : []),
          ...(alone.length > 0 ? ['suites/runs.suite.ts'] : []),
          ...(comparisons.length > 0 ? ['suites/gate.suite.ts'] : []),
        ];
  if (files.length === 0 && suites?.kind !== 'all') {
    context.stdout('auditbench gate: nothing to measure\n');
    return { exitCode: null, verdicts: [] };
  }
  const dir = await mkdtemp(path.join(tmpdir(), 'auditbench-gate-'));
  try {
    const plan: GatePlanFile = {
      headConfig: selection.headConfig,
      baseConfig: selection.baseConfig ?? selection.headConfig,
      baseTree: selection.baseTree,
      baseRef: selection.base.ref,
      maxRegressionPp: allowedPp,
      maxCountedRisePp,
      inconclusive,
      comparisons,
      verdictsFile: path.join(dir, 'verdicts.jsonl'),
    };
    await writeFile(path.join(dir, 'plan.json'), JSON.stringify(plan));
    const ids = alone.map((item) => item.runId);
    const code = await setupAndRunVitest('bench', ['--project', 'suites', ...files, ...vitestArgs], context, {
      AUDITBENCH_WORKLOAD: gateWorkload(context.env),
      AUDITBENCH_CONFIG: selection.headConfig,
      AUDITBENCH_BASE_REF: selection.base.ref,
      AUDITBENCH_GATE_PLAN: path.join(dir, 'plan.json'),
      // The configured runs only (as bench: no example sweep), unless the change touched the harness's own suites.
      ...(!suites || suites.kind === 'none' ? { AUDITBENCH_PLUGINS_ONLY: '1' } : {}),
      ...(ids.length > 0 ? { AUDITBENCH_RUNS: ids.join(',') } : {}),
    });
    const verdicts = (await readVerdicts(plan.verdictsFile)).map((v) => {
      const mark = gateMark(v, inconclusive);
      return { mark, line: verdictLine(mark, v) };
    });
    for (const v of verdicts) context.stdout(`${v.line}\n`);
    return { exitCode: code, verdicts };
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

/**
 * <report dir>/gate.md: the selection, the verdicts and the base branch's trend from history.jsonl (src/gate/summary.ts),
 * which the Action publishes on the pull request; appended to GITHUB_STEP_SUMMARY too when that is set.
 */
async function writeSummary(
  gate: { selection: GateSelection; described: string[]; measured: Measured },
  config: Environment,
  context: GateContext,
): Promise<void> {
  const { selection, described, measured } = gate;
  const reportDir = path.resolve(context.userDir, config.reportDir);
  const history = await readHistory(path.join(reportDir, HISTORY_FILE));
  const markdown = formatGateSummary({
    selection: described,
    verdicts: measured.verdicts,
    exitCode: measured.exitCode,
    baseRef: selection.base.ref,
    runIds: selection.items.map((item) => item.runId),
    history: history.entries,
  });
  const target = await reportPath(reportDir, 'gate.md');
  await mkdir(reportDir, { recursive: true });
  await writeFile(target, markdown);
  if (config.githubStepSummary) await appendFile(config.githubStepSummary, `${markdown}\n`);
  context.stdout(`auditbench gate: wrote ${path.relative(context.userDir, target) || target}\n`);
}

export const summary = 'measure what a branch changed against its base branch, base beside head';

export const usage = gateUsage;

export const run = (argv: string[], context: CliContext): Promise<number> => runGate(argv, context);

/** What `run` refuses before git or a server is touched. */
export async function check(argv: string[]): Promise<string | null> {
  const parsed = await parseGateArgs(argv);
  return parsed.ok ? null : parsed.problem;
}
