import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Plugin } from 'vite';
import type { TestProjectInlineConfiguration } from 'vitest/config';
import type { TestProject, Vitest } from 'vitest/node';
import { vitestProcessEnv } from '../config/env.ts';
import { reportPath } from '../results/safe-path.ts';
import { parallelRunsSuiteProblem, pluginOptionsProblem, runsSuiteProblem } from './plugin-options.ts';

// The package's Vitest plugin: `plugins: [auditbench()]` in a vitest.config.ts adds auditbench's project (the
// configured runs' suite and the DBA's own audit tests) and its reporters. auditbench's own vitest.config.ts and
// `auditbench bench` go through it too. Compiled to dist/ and loaded by Node with the config file, it imports only
// files that import no package but zod (env.ts, safe-path.ts, plugin-options.ts and what they import); the preflight
// and the reporters it reaches by path through Vitest's module runner.

export interface AuditbenchPluginOptions {
  /** The project's name; `--project <name>` selects it. Default 'auditbench'. */
  name?: string;
  /** Your own test files that run inside the project (one at a time, with its timeouts), relative to the root. */
  include?: string[];
  /** Files the project leaves out, inside the root; one that would leave out the runs suite is refused. */
  exclude?: string[];
  /** More global setup files (auditbench's own suites add the shared pack folder). */
  globalSetup?: string[];
  /**
   * Settings the project starts with where the environment does not set them. Default: the configured runs only
   * (AUDITBENCH_PLUGINS_ONLY=1) on bench's workload (standard), so `npx vitest run` measures what `auditbench bench` does.
   * Names are docs/settings.md's (and AUDITBENCH_PLUGINS_ONLY), values strings: anything else is refused.
   */
  env?: Record<string, string>;
  /** Other projects of the config that start servers too, so the preflight probes binaries for them as well. */
  serverProjects?: string[];
  /**
   * Your files that measure nothing (each checks records, refusals or a lifecycle on a server of its own): they run two
   * at a time in a project of their own, `<name>-parallel`, after every other project and before the files that
   * measure, never beside one. A measurement asked for there is refused. Patterns relative to the root, as `include`.
   */
  parallel?: string[];
}

export const DEFAULT_INCLUDE = ['audit/**/*.test.ts'];
const BENCH_ENV = { AUDITBENCH_PLUGINS_ONLY: '1', AUDITBENCH_WORKLOAD: 'standard' };

/** The package's folder, found from this file whether it runs from src/ (TypeScript) or dist/src/ (compiled). */
export function packageRoot(from = path.dirname(fileURLToPath(import.meta.url))): string {
  for (let dir = from; ; dir = path.dirname(dir)) {
    const manifest = path.join(dir, 'package.json');
    if (
      existsSync(manifest) &&
      (JSON.parse(readFileSync(manifest, 'utf8')) as { name?: string }).name === 'auditbench'
    )
      return dir;
    if (path.dirname(dir) === dir) throw new Error(`auditbench: no package.json of auditbench above ${from}`);
  }
}

/** The name of the project that runs the `parallel` files, beside auditbench's. */
export const parallelName = (name: string) => `${name}-parallel`;

/** The projects auditbench adds, in the order they run: the `parallel` files' when there are any, then its own. */
export function auditbenchProjects(
  root: string,
  options: AuditbenchPluginOptions,
  groupOrder: number,
): TestProjectInlineConfiguration[] {
  if ((options.parallel ?? []).length === 0) return [auditbenchProject(root, options, groupOrder)];
  return [parallelProject(options, groupOrder), auditbenchProject(root, options, groupOrder + 1)];
}

/** The project auditbench adds: what a benchmark needs, whichever repository it runs in. */
export function auditbenchProject(
  root: string,
  options: AuditbenchPluginOptions,
  groupOrder: number,
): TestProjectInlineConfiguration {
  const pkg = packageRoot();
  const runsSuite = path.relative(root, path.join(pkg, 'suites', 'runs.suite.ts'));
  const include = options.include ?? DEFAULT_INCLUDE;
  return {
    test: {
      ...serverProjectBase(options),
      name: options.name ?? 'auditbench',
      include: include.includes(runsSuite) ? include : [runsSuite, ...include],
      // The runs suite sits in node_modules in a DBA's repository: Vitest's default exclude would drop it. The
      // parallel files are the other project's.
      exclude: [...(options.exclude ?? []), ...(options.parallel ?? [])],
      // Benchmarks must never overlap: one file at a time, tests in order, no retry hiding a regression; after every
      // other project, so no unit test shares the CPUs with a measurement.
      fileParallelism: false,
      sequence: { concurrent: false, groupOrder },
    },
  };
}

/**
 * The project of the files that measure nothing: three at a time (a server's start and most checks are waiting), in a
 * group of their own before the measuring project's, with `auditbenchParallel` provided so that a measurement refuses
 * to start there (src/vitest/measured-folder.ts). Three, not two, since 2026-12-08, when the completeness suite joined
 * them (with the counted suite, since moved back, fourteen files took 5 min 32 s at three, alone: docs/test-suites.md).
 */
function parallelProject(
  options: AuditbenchPluginOptions,
  groupOrder: number,
): TestProjectInlineConfiguration {
  return {
    test: {
      ...serverProjectBase(options),
      name: parallelName(options.name ?? 'auditbench'),
      include: options.parallel ?? [],
      exclude: options.exclude ?? [],
      fileParallelism: true,
      maxWorkers: 3,
      sequence: { concurrent: false, groupOrder },
      provide: { auditbenchParallel: true },
    },
  };
}

/** What both of auditbench's projects need: the run lock and settings, the package transformed, no retry. */
function serverProjectBase(options: AuditbenchPluginOptions) {
  return {
    globalSetup: [
      path.join(packageRoot(), 'suites', 'shared', 'check-config.ts'),
      ...(options.globalSetup ?? []),
    ],
    // auditbench's TypeScript and the user's config import it from node_modules, which Vitest would otherwise hand
    // to Node untransformed.
    server: { deps: { inline: ['auditbench'] } },
    environment: 'node' as const,
    pool: 'forks' as const,
    retry: 0,
    testTimeout: 60 * 60_000,
    hookTimeout: 10 * 60_000,
  };
}

/** The reporters the project needs, by path (Vitest loads them through its module runner): they see only its tests. */
export function auditbenchReporters(
  projects: string[],
  env: NodeJS.ProcessEnv,
): [string, Record<string, unknown>][] {
  const pkg = packageRoot();
  return [
    // While the run goes: the project's own lines, and a line after each benchmark file.
    [path.join(pkg, 'reporters', 'progress-reporter.ts'), { projects }],
    // At the end: results.json, the history, the summaries, index.html, the history check, JUnit, the closing line.
    [
      path.join(pkg, 'reporters', 'auditbench-reporter.ts'),
      { projects, junit: { outputFile: `${env.AUDITBENCH_REPORT_DIR ?? 'reports'}/junit.xml` } },
    ],
  ];
}

const configured = new WeakSet<Vitest>();

/** `plugins: [auditbench()]`: auditbench's project and reporters in this invocation of Vitest. */
export function auditbench(options: AuditbenchPluginOptions = {}): Plugin {
  const name = options.name ?? 'auditbench';
  return {
    name: 'auditbench',
    // Vitest calls configureVitest only on the projects that carry the plugin and are left after --project. A config
    // without test.projects is one project, the root's, which carries it: the hook injects auditbench's project. With
    // test.projects (whose inline entries do not inherit the root's plugins), or a --project naming auditbench's alone,
    // the project goes into test.projects here, carrying the same set-up.
    config(config) {
      const listed = config.test?.projects;
      const names = [name, parallelName(name)];
      const named = projectFilters(process.argv).some((filter) => names.some((n) => filter.test(n)));
      // The root's module runner loads the preflight and the reporters from the package's TypeScript.
      const inline = { server: { deps: { inline: ['auditbench'] } } };
      if (listed === undefined && !named) return { test: inline };
      const root = path.resolve(config.root ?? process.cwd());
      const projects = auditbenchProjects(root, options, afterAll(listed ?? [])).map((project) => ({
        ...project,
        plugins: [setupPlugin(options)],
      }));
      return { test: { ...inline, projects } };
    },
    configureVitest: (context) => configure(context.vitest, context.injectTestProjects, options),
  };
}

/** The plugin auditbench's own project carries when the config hook added it: the same set-up, nothing injected. */
const setupPlugin = (options: AuditbenchPluginOptions): Plugin => ({
  name: 'auditbench:setup',
  configureVitest: (context) => configure(context.vitest, null, options),
});

async function configure(
  vitest: Vitest,
  inject: ((configs: TestProjectInlineConfiguration[]) => Promise<TestProject[]>) | null,
  options: AuditbenchPluginOptions,
): Promise<void> {
  // A root config's plugin is seen by every project that extends it: set up once.
  if (configured.has(vitest)) return;
  configured.add(vitest);
  const name = options.name ?? 'auditbench';
  const root = vitest.config.root;
  stopOn(pluginOptionsProblem(root, options));
  const env = vitestProcessEnv(options.env ?? BENCH_ENV);
  const names = [name, parallelName(name)];
  const others = vitest.projects.filter((p) => !names.includes(p.name));
  const order = Math.max(0, ...others.map((p) => p.config.sequence.groupOrder ?? 0)) + 1;
  const ours = vitest.projects.filter((p) => names.includes(p.name));
  if (ours.length === 0 && inject) ours.push(...(await inject(auditbenchProjects(root, options, order))));
  const runsSuite = path.join(packageRoot(), 'suites', 'runs.suite.ts');
  // The parallel project first: a pattern there that takes in the runs suite also drops it from auditbench's.
  for (const project of [...ours].sort((a, b) => Number(a.name === name) - Number(b.name === name))) {
    const collects = (f: string) => project.matchesTestGlob(f);
    stopOn(
      project.name === name
        ? runsSuiteProblem(root, runsSuite, options.exclude ?? [], collects)
        : parallelRunsSuiteProblem(root, runsSuite, options.parallel ?? [], collects),
    );
  }
  // --project may leave it out: then only the settings are checked, and no server will start.
  const serving = others.some((p) => options.serverProjects?.includes(p.name));
  const servers = (ours.length > 0 || serving) && !vitest.config.mergeReports;
  await runPreflight(vitest, env, servers);
  stopOn(await reportLinkProblem(root, env));
  keepOut(others, options.include ?? DEFAULT_INCLUDE);
  await setRunEnvironment(vitest, env);
  vitest.config.reporters.push(...auditbenchReporters(names, env));
  // The project's lines are the progress reporter's to print, without the default reporter's header before each
  // block; the DBA's own onConsoleLog still decides for their other projects.
  const theirs = vitest.config.onConsoleLog;
  vitest.config.onConsoleLog = (log, type, entity) =>
    entity && names.includes(entity.project.name) ? false : theirs?.(log, type, entity);
}

/** A groupOrder after every inline project's. */
function afterAll(projects: unknown[]): number {
  const orders = projects.map(
    (p) => (p as { test?: { sequence?: { groupOrder?: number } } })?.test?.sequence?.groupOrder ?? 0,
  );
  return Math.max(0, ...orders) + 1;
}

/** The --project filters of a Vitest command line, as Vitest matches them (`*` is a wildcard). */
export function projectFilters(argv: string[]): RegExp[] {
  const given = argv.flatMap((arg, i) =>
    arg === '--project' ? [argv[i + 1] ?? ''] : arg.startsWith('--project=') ? [arg.slice(10)] : [],
  );
  return given.map(
    (filter) =>
      new RegExp(
        `^${filter
          .split('*')
          .map((part) => part.replace(/[.+?^${}()|[\]\\]/g, '\\$&'))
          .join('.*')}$`,
      ),
  );
}

/**
 * Every setting is checked before Vitest creates a reporter (JUnit opens junit.xml at start): one line and exit 2 on
 * a bad one. Binaries and the configuration's runs are checked when auditbench's project will run.
 */
async function runPreflight(vitest: Vitest, env: NodeJS.ProcessEnv, servers: boolean): Promise<void> {
  const file = path.join(packageRoot(), 'src', 'cli', 'preflight.ts');
  const { preflight } = await vitest.import<typeof import('../cli/preflight.ts')>(file);
  try {
    await preflight(env, { servers });
  } catch (error) {
    process.stderr.write(`auditbench: ${error instanceof Error ? error.message : String(error)}\n`);
    process.exit(2);
  }
}

/** One line and exit 2 for a bad option, as the preflight does for a bad setting. */
function stopOn(problem: string | null): void {
  if (problem === null) return;
  process.stderr.write(`auditbench: ${problem}\n`);
  process.exit(2);
}

// What the reporters write in the report folder; runs/ holds one file per invocation besides index.json.
const REPORT_FILES = [
  'junit.xml',
  'history.jsonl',
  'results.json',
  'runs/index.json',
  'summary.md',
  'index.html',
  'history-check.md',
];

/**
 * Why a report file may not be written: a symbolic link on its path (src/results/safe-path.ts). Checked before Vitest
 * creates the reporters, since JUnit's opens junit.xml for writing at start, which would truncate a link's target.
 */
export async function reportLinkProblem(root: string, env: NodeJS.ProcessEnv): Promise<string | null> {
  const reportDir = path.resolve(root, env.AUDITBENCH_REPORT_DIR ?? 'reports');
  for (const file of REPORT_FILES) {
    const problem = await reportPath(reportDir, file).then(
      () => null,
      (error: Error) => error.message,
    );
    if (problem) return problem;
  }
  return null;
}

/** The history compares with the repository's default branch, as `auditbench bench` finds it (src/cli/vitest-run.ts). */
async function setRunEnvironment(vitest: Vitest, env: NodeJS.ProcessEnv): Promise<void> {
  const file = path.join(packageRoot(), 'src', 'vitest', 'run-environment.ts');
  const { runEnvironment } = await vitest.import<typeof import('./run-environment.ts')>(file);
  Object.assign(env, await runEnvironment(env, vitest.config.root));
}

/** The DBA's audit tests run in auditbench's project alone, never a second time in a project of theirs. */
function keepOut(projects: TestProject[], include: string[]): void {
  for (const project of projects) project.config.exclude.push(...include);
}
