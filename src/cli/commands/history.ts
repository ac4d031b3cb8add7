// `auditbench history`: the trend of each configured run in a terminal, from <report dir>/history.jsonl or a branch
// (`--from origin/auditbench-history`); and the Action's two steps around a measurement: `fetch` (the history branch
// into history.jsonl, before) and `record` (this job's new entries onto the branch, with the index and the trend
// page, after). The store is src/history/branch-store.ts; the page is reporters/trend/trend-page.ts.
import { constants } from 'node:fs';
import { mkdir, open } from 'node:fs/promises';
import path from 'node:path';
import { historyIndex, trendPage } from '../../../reporters/trend/trend-page.ts';
import { loadEnvironment } from '../../config/env.ts';
import { defaultHistoryPolicy } from '../../config/policy.ts';
import {
  checkBranchName,
  DEFAULT_HISTORY_BRANCH,
  fetchTip,
  readBranchHistory,
  recordToBranch,
} from '../../history/branch-store.ts';
import type { HistoryEntry } from '../../history/entry.ts';
import { formatTrends, trendsJson } from '../../history/format-trend.ts';
import { HISTORY_FILE, readHistory } from '../../history/history-store.ts';
import { formatHistoryLines, type ParsedHistory } from '../../history/parse-history.ts';
import { runTrends, type TrendLimits } from '../../history/trend.ts';
import { reportPath } from '../../results/safe-path.ts';
import { loadPolicy } from '../../runs/load-runs.ts';
import { parseOwnArgs, refuse } from '../bad-args.ts';
import type { CliContext } from '../context.ts';
import { userEnv } from '../user-paths.ts';

export const summary = "the overhead's trend per run, from history.jsonl or a history branch (--from)";

export const usage = `usage: auditbench history [--from <ref>] [--run <id>] [--last <n>] [--json]
       auditbench history fetch [--branch <name>] [--remote <name>]
       auditbench history record [--branch <name>] [--remote <name>] [--pages-url <url>]

Prints, per configured run, its last entries oldest first: commit, date, branch, workload, the runner's
machine fingerprint, the wall-clock overhead with its 95% interval and the counted figures, with a mark
(✗) where the history check fails the entry against the ones before it (AUDITBENCH_MAX_REGRESSION_PP, else
the configuration's maxRegressionPp; without one, nothing is marked).

  --from <ref>       read a history branch (e.g. origin/auditbench-history) instead of <report dir>/history.jsonl
  --run <id>         only this run (repeatable)
  --last <n>         entries per run (default 10)
  --json             one JSON document for scripts: { source, runs: [{ run, entries }] }
  -h, --help         this text

The Action's steps (action/measure.sh), in the repository's work tree, which they never switch:
  fetch              fetches the history branch from the remote into <report dir>/history.jsonl
  record             commits the entries of history.jsonl the branch lacks as one new file, with index.json
                     and index.html (the trend page), and pushes; a push rejected by another job's is redone
  --branch <name>    the history branch (default ${DEFAULT_HISTORY_BRANCH})
  --remote <name>    the remote (default origin); record pushes with its credentials, or AUDITBENCH_HISTORY_TOKEN
  --pages-url <url>  where the page is served, printed after recording
`;

const options = {
  from: { type: 'string' },
  run: { type: 'string', multiple: true },
  last: { type: 'string' },
  json: { type: 'boolean' },
  branch: { type: 'string' },
  remote: { type: 'string' },
  'pages-url': { type: 'string' },
  help: { type: 'boolean', short: 'h' },
} as const;

const ACTIONS = ['fetch', 'record'] as const;
type Parsed = Extract<ReturnType<typeof parseOwnArgs<typeof options>>, { ok: true }>;

function problemOf(parsed: Parsed): string | null {
  const [action, ...more] = parsed.positionals;
  const { values } = parsed;
  if (more.length > 0) return `unexpected argument '${more[0]}'`;
  if (action !== undefined && !(ACTIONS as readonly string[]).includes(action))
    return `unexpected argument '${action}' (the actions are ${ACTIONS.join(', ')}; a branch is --from <ref>)`;
  if (values.last !== undefined && !/^[1-9]\d{0,3}$/.test(values.last))
    return `--last must be a whole number from 1 to 9999, got '${values.last}'`;
  const showOnly = ['from', 'run', 'last', 'json'].filter(
    (k) => values[k as keyof typeof values] !== undefined,
  );
  if (action !== undefined && showOnly.length > 0) return `--${showOnly[0]} does not go with ${action}`;
  const actionOnly = ['branch', 'remote', 'pages-url'].filter(
    (k) => values[k as keyof typeof values] !== undefined,
  );
  if (action === undefined && actionOnly.length > 0)
    return `--${actionOnly[0]} goes with fetch or record only`;
  if (values['pages-url'] !== undefined && !/^https?:\/\/[^\s"'<>`]+$/.test(values['pages-url']))
    return `--pages-url must be an http(s) URL without spaces or quotes, got '${values['pages-url']}'`;
  if (values.remote?.startsWith('-')) return `--remote '${values.remote}' starts with '-'`;
  // Shown as JSON, so a ref with a line break stays one line of the refusal.
  if (values.from?.startsWith('-'))
    return `--from ${JSON.stringify(values.from)} starts with '-': give a ref, e.g. --from origin/auditbench-history`;
  return null;
}

/** What `run` refuses before reading anything. */
export async function check(argv: string[]): Promise<string | null> {
  const parsed = parseOwnArgs(argv, options, { allowPositionals: true });
  return parsed.ok ? problemOf(parsed) : parsed.problem;
}

async function limitsFor(env: Record<string, string | undefined>): Promise<TrendLimits> {
  const config = loadEnvironment(env);
  const policy = await loadPolicy(config).catch(() => null);
  return {
    maxRegressionPp: policy?.history.maxRegressionPp ?? config.maxRegressionPp,
    maxCountedRisePp: policy?.history.maxCountedRisePp ?? defaultHistoryPolicy.maxCountedRisePp,
  };
}

export async function run(argv: string[], context: CliContext): Promise<number> {
  const parsed = parseOwnArgs(argv, options, { allowPositionals: true });
  if (!parsed.ok) return refuse(context, 'history', parsed.problem);
  if (parsed.values.help) {
    context.stdout(usage);
    return 0;
  }
  const problem = problemOf(parsed);
  if (problem) return refuse(context, 'history', problem);
  const env = userEnv(context);
  const { values } = parsed;
  const branch = values.branch ?? DEFAULT_HISTORY_BRANCH;
  const action = parsed.positionals[0];
  if (action !== undefined) {
    const bad = await checkBranchName(context.userDir, branch);
    if (bad) return refuse(context, 'history', bad);
  }
  const reportDir = env.AUDITBENCH_REPORT_DIR ?? 'reports';
  const historyFile = path.join(reportDir, HISTORY_FILE);
  const remote = values.remote ?? 'origin';
  const store = { repoDir: context.userDir, remote, branch, token: env.AUDITBENCH_HISTORY_TOKEN ?? null };
  if (action === 'fetch') {
    // Refused before anything is fetched: the file is replaced, and a link committed in the clone would lead elsewhere.
    const linked = await reportPath(reportDir, HISTORY_FILE).then(
      () => null,
      (error: Error) => error.message,
    );
    return linked ? refuse(context, 'history', linked) : fetchInto(context, store, historyFile);
  }
  if (action === 'record') return record(context, store, historyFile, values['pages-url'] ?? null);
  return show(context, env, values, historyFile);
}

/** The trend, from history.jsonl or the ref --from names; a ref that names no commit is refused, not an empty trend. */
async function show(
  context: CliContext,
  env: Record<string, string | undefined>,
  values: Parsed['values'],
  historyFile: string,
): Promise<number> {
  const source = values.from ?? historyFile;
  let history: ParsedHistory;
  if (values.from) {
    const read = await readBranchHistory(context.userDir, values.from);
    if (read.commit === null)
      return refuse(
        context,
        'history',
        `--from ${JSON.stringify(values.from)} names no commit in ${context.userDir}: give a branch that exists, e.g. origin/auditbench-history (fetch it first: git fetch origin auditbench-history)`,
      );
    history = read;
  } else history = await readHistory(historyFile);
  for (const warning of history.warnings) context.stderr(`auditbench: warning: ${warning}\n`);
  const trends = runTrends(history.entries, await limitsFor(env), {
    last: Number(values.last ?? 10),
    runs: values.run ?? null,
  });
  context.stdout(values.json ? trendsJson(trends, source) : formatTrends(trends, source));
  return 0;
}

type Store = Parameters<typeof recordToBranch>[0];

/** The branch's entries as history.jsonl, replacing the file: what bench compares with and gate's trend shows. */
async function fetchInto(context: CliContext, store: Store, historyFile: string): Promise<number> {
  const tip = await fetchTip(store);
  const history = tip ? await readBranchHistory(store.repoDir, tip) : { entries: [], warnings: [] };
  for (const warning of history.warnings) context.stderr(`auditbench: warning: ${warning}\n`);
  await mkdir(path.dirname(historyFile), { recursive: true });
  // O_NOFOLLOW: a link put in its place since the check is refused by the kernel too.
  const { O_WRONLY, O_CREAT, O_TRUNC, O_NOFOLLOW } = constants;
  const handle = await open(historyFile, O_WRONLY | O_CREAT | O_TRUNC | O_NOFOLLOW, 0o666);
  try {
    await handle.writeFile(formatHistoryLines(history.entries));
  } finally {
    await handle.close();
  }
  context.stdout(
    `auditbench history: ${history.entries.length} entr${history.entries.length === 1 ? 'y' : 'ies'} from ${store.remote} ${store.branch}${tip ? ` (${tip.slice(0, 7)})` : ' (no such branch yet: it is created on the first push)'} into ${historyFile}\n`,
  );
  return 0;
}

const key = (e: HistoryEntry) => JSON.stringify([e.invocationId, e.runId, e.title, e.recordedAt, e.commit]);

/** history.jsonl's entries the branch lacks, as one new file; nothing to record is said and is not an error. */
async function record(
  context: CliContext,
  store: Store,
  historyFile: string,
  pagesUrl: string | null,
): Promise<number> {
  const tip = await fetchTip(store);
  const local = await readHistory(historyFile);
  const onBranch = tip ? await readBranchHistory(store.repoDir, tip) : { entries: [] };
  const known = new Set(onBranch.entries.map(key));
  const fresh = local.entries.filter((e) => !known.has(key(e)));
  const invocations = new Set(fresh.map((e) => e.invocationId));
  if (fresh.length === 0) {
    context.stdout(`auditbench history: nothing new in ${historyFile} to record on ${store.branch}\n`);
    return 0;
  }
  // One file per invocation of bench: entries of two invocations (never in one job) would share a file name.
  let last = '';
  for (const invocationId of invocations) {
    const entries = fresh.filter((e) => e.invocationId === invocationId);
    const recorded = await recordToBranch(store, entries, async (all) => ({
      'index.json': historyIndex(all),
      'index.html': await trendPage(all),
    }));
    last = recorded.commit;
    context.stdout(
      `auditbench history: recorded ${entries.length} entr${entries.length === 1 ? 'y' : 'ies'} as ${recorded.file} on ${store.remote} ${store.branch} (${recorded.commit.slice(0, 7)}${recorded.retries > 0 ? `, after ${recorded.retries} rejected push(es)` : ''})\n`,
    );
  }
  if (pagesUrl) context.stdout(`auditbench history: the trend page: ${pagesUrl} (${last.slice(0, 7)})\n`);
  return 0;
}
