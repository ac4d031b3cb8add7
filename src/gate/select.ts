// What a branch needs measured, read from the repository the gate runs in: its changed files, the base's
// configuration (from that repository's own history) and the installed auditbench on both sides.
import { readdir, readFile, realpath } from 'node:fs/promises';
import path from 'node:path';
import { profiles } from '../profiles/index.ts';
import { loadRuns } from '../runs/load-runs.ts';
import type { ResolvedRun } from '../runs/runs.ts';
import { type BaseTree, baseTreeResolver } from './base-paths.ts';
import { installedAuditbench, versionChange } from './installed-version.ts';
import { type GateItem, planGate } from './plan.ts';
import {
  type BaseCheckout,
  changedFiles,
  checkOutBase,
  fileAt,
  openRepo,
  type Repo,
  resolveBase,
} from './repo.ts';
import { relativeImports, type Selection, selectSuites } from './selection.ts';

export interface GateSelection {
  repo: Repo;
  base: { ref: string; mergeBase: string };
  changed: string[];
  /** The configuration file, absolute, in the work tree and in the base's checkout (null: the base has none). */
  headConfig: string;
  baseConfig: string | null;
  /** The work tree and the base's checkout, where the base's `cnf` and `traffic.script` are read (null: no base). */
  baseTree: BaseTree | null;
  items: GateItem[];
  /** Plugin suites, only when the repository is auditbench's own clone; null elsewhere. */
  suites: Selection | null;
  /** Lines that explain the selection beyond its items, e.g. why the base's runs could not be read. */
  notes: string[];
  /** The base's checkout: keep it until the measurement has read the base's configuration. */
  checkout: BaseCheckout | null;
}

export interface SelectOptions {
  userDir: string;
  packageDir: string;
  /** --base, else AUDITBENCH_BASE_REF as the user set it, else null for the default branch. */
  base: { ref: string; from: string } | null;
  /** The configuration file as given (AUDITBENCH_CONFIG), relative to userDir. */
  configPath: string;
}

// The configuration's runs are measured by suites/runs.suite.ts and suites/gate.suite.ts, not selected by imports.
const RUN_SUITES = new Set(['suites/runs.suite.ts', 'suites/gate.suite.ts']);

/** Suite files of auditbench's own suites project, and the relative imports of every file they reach. */
async function suiteGraph(root: string): Promise<{ suites: string[]; importsOf: Record<string, string[]> }> {
  const suites = (await readdir(path.join(root, 'suites'), { recursive: true }))
    .map((file) => `suites/${file.split('\\').join('/')}`)
    .filter(
      (file) => file.endsWith('.suite.ts') && !file.startsWith('suites/precision/') && !RUN_SUITES.has(file),
    )
    .sort();
  const importsOf: Record<string, string[]> = {};
  const queue = [...suites];
  for (let file = queue.pop(); file !== undefined; file = queue.pop()) {
    if (file in importsOf) continue;
    const source = await readFile(path.join(root, file), 'utf8').catch(() => '');
    const imports = relativeImports(file, source);
    importsOf[file] = imports;
    queue.push(...imports);
  }
  return { suites, importsOf };
}

async function readOrNull(file: string): Promise<string | null> {
  return readFile(file, 'utf8').catch(() => null);
}

/** In a DBA's repository: a different installed auditbench than the base's can move every measurement. */
async function installChange(repo: Repo, mergeBase: string): Promise<string | null> {
  const at = (file: string) => fileAt(repo, mergeBase, file);
  const now = (file: string) => readOrNull(path.join(repo.root, file));
  return versionChange(
    installedAuditbench(await at('package-lock.json'), await at('package.json')),
    installedAuditbench(await now('package-lock.json'), await now('package.json')),
  );
}

async function loadBaseRuns(
  repo: Repo,
  mergeBase: string,
  relative: string,
): Promise<{ runs: ResolvedRun[] | null; checkout: BaseCheckout | null; note: string | null }> {
  if ((await fileAt(repo, mergeBase, relative)) === null) return { runs: null, checkout: null, note: null };
  const checkout = await checkOutBase(repo, mergeBase);
  const file = path.join(checkout.dir, relative);
  const resolveFile = baseTreeResolver({ headRoot: repo.root, baseRoot: checkout.dir });
  try {
    const runs = await loadRuns({ configPath: file, runIds: null }, profiles, { resolveFile });
    return { runs, checkout, note: null };
  } catch (error) {
    await checkout[Symbol.asyncDispose]();
    const why = error instanceof Error ? error.message.split('\n')[0] : String(error);
    return {
      runs: null,
      checkout: null,
      note: `the base's ${relative} could not be read (${why}): every run is new`,
    };
  }
}

export async function selectForGate(options: SelectOptions): Promise<GateSelection> {
  const repo = await openRepo(options.userDir);
  const base = await resolveBase(repo, options.base);
  const changed = await changedFiles(repo, base.mergeBase);
  const own = (await realpath(repo.root)) === (await realpath(options.packageDir));
  const suites = own ? selectSuites({ changed, ...(await suiteGraph(repo.root)) }) : null;
  const headConfig = path.resolve(options.userDir, options.configPath);
  const head = await loadRuns({ configPath: headConfig, runIds: null }, profiles);
  const relative = path.relative(repo.root, headConfig);
  const notes: string[] = [];
  if (relative.startsWith('..') || path.isAbsolute(relative)) {
    const why = `${options.configPath} is outside this repository, so its base version is unknown`;
    const items = planGate(head, null, why);
    return {
      repo,
      base,
      changed,
      headConfig,
      baseConfig: null,
      baseTree: null,
      items,
      suites,
      notes,
      checkout: null,
    };
  }
  const everyRun =
    suites?.kind === 'all' ? 'harness changed' : own ? null : await installChange(repo, base.mergeBase);
  const loaded = await loadBaseRuns(repo, base.mergeBase, relative);
  if (loaded.note) notes.push(loaded.note);
  const baseConfig = loaded.checkout ? path.join(loaded.checkout.dir, relative) : null;
  const baseTree = loaded.checkout ? { headRoot: repo.root, baseRoot: loaded.checkout.dir } : null;
  const items = planGate(head, loaded.runs, everyRun);
  const checkout = loaded.checkout;
  return { repo, base, changed, headConfig, baseConfig, baseTree, items, suites, notes, checkout };
}
