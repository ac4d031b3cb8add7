import path from 'node:path';
import { nearest } from '../cli/near-miss.ts';
import { envValueProblem, settingNames } from '../config/setting-names.ts';

// The options a DBA gives `auditbench({ … })` in their vitest.config.ts, checked before anything of the project runs:
// Vitest strips types, so nothing else stops a pattern that leads out of the project or a setting's misspelt name.

/** The options checked here, as they come from a config file nothing type-checked. */
export interface GivenOptions {
  include?: unknown;
  exclude?: unknown;
  parallel?: unknown;
  env?: unknown;
}

// A `..` segment, also inside braces or an extglob's alternatives ({..,audit}/*.ts, @(..|x)/*): a glob that climbs.
const climbs = /(^|[/{,(|])\.\.($|[/},)|])/;

type PatternSetting = 'include' | 'exclude' | 'parallel';

/** Why one include, exclude or parallel pattern leaves the project root, or null. */
export function patternProblem(root: string, setting: PatternSetting, pattern: unknown): string | null {
  const what = `auditbench({ ${setting} })`;
  const fix = "write it relative to the project's root and inside it, e.g. 'audit/**/*.test.ts'";
  if (typeof pattern !== 'string' || pattern.trim() === '')
    return `${what}: ${JSON.stringify(pattern) ?? String(pattern)} is not a glob pattern: ${fix}`;
  if (climbs.test(pattern))
    return `${what}: '${pattern}' climbs out of the project root ${root} (a '..'): ${fix}`;
  if (path.isAbsolute(pattern)) {
    const relative = path.relative(root, pattern);
    if (relative.startsWith('..') || path.isAbsolute(relative))
      return `${what}: '${pattern}' is outside the project root ${root}: ${fix}`;
  }
  return null;
}

/** Why `include`, `exclude` or `parallel` is not a list of patterns inside the root, or null. */
function patternsProblem(root: string, setting: PatternSetting, given: unknown): string | null {
  if (given === undefined) return null;
  if (!Array.isArray(given))
    return `auditbench({ ${setting} }) must be a list of glob patterns, got ${JSON.stringify(given) ?? String(given)}: e.g. ['audit/**/*.test.ts']`;
  for (const pattern of given) {
    const problem = patternProblem(root, setting, pattern);
    if (problem) return problem;
  }
  return null;
}

/** Why a name given to `env` is not a setting auditbench reads, with the one it most likely meant. */
export function envNameProblem(name: string): string | null {
  if ((settingNames as readonly string[]).includes(name)) return null;
  const meant = nearest(name, settingNames);
  const hint = meant
    ? `did you mean ${meant}?`
    : 'env takes the AUDITBENCH_* settings of docs/settings.md; set other variables in your environment';
  return `auditbench({ env }): '${name}' is not a setting auditbench reads: ${hint}`;
}

/** Why `env` is not a record of known settings to text, or null. */
function envProblem(env: unknown): string | null {
  if (env === undefined) return null;
  if (typeof env !== 'object' || env === null || Array.isArray(env))
    return `auditbench({ env }) must be an object of settings, e.g. { AUDITBENCH_WORKLOAD: 'standard' }, got ${JSON.stringify(env) ?? String(env)}`;
  for (const [name, value] of Object.entries(env)) {
    const problem = envNameProblem(name) ?? envValueProblem(name, value);
    if (problem) return problem;
  }
  return null;
}

/** The first problem of the options, as the one line the plugin prints before it stops Vitest (exit 2), or null. */
export function pluginOptionsProblem(root: string, options: GivenOptions): string | null {
  return (
    patternsProblem(root, 'include', options.include) ??
    patternsProblem(root, 'exclude', options.exclude) ??
    patternsProblem(root, 'parallel', options.parallel) ??
    envProblem(options.env)
  );
}

/**
 * Why the project would not collect the runs suite, or null. `collects` is Vitest's own matcher for the project
 * (TestProject.matchesTestGlob): the include always names the suite, so only an `exclude` can drop it, e.g. Vitest's
 * usual `**\/node_modules/**` in a DBA's repository, where the suite sits in node_modules/auditbench. Refused rather
 * than quietly kept, so the DBA learns that their pattern reaches further than they meant.
 */
export function runsSuiteProblem(
  root: string,
  runsSuite: string,
  exclude: readonly string[],
  collects: (file: string) => boolean,
): string | null {
  if (collects(runsSuite)) return null;
  const shown = exclude.map((p) => `'${p}'`).join(', ');
  return `auditbench({ exclude }): ${shown} leaves out the runs suite (${path.relative(root, runsSuite)}), which the project runs for every configured run: narrow it to your own files, e.g. 'audit/drafts/**' (the project collects from node_modules only what your include patterns reach)`;
}

/**
 * Why the `parallel` project would take in the runs suite, which measures, or null: its files run beside each other,
 * and the runs suite would be refused there (a measurement shares no CPU). Checked before the exclude's problem, which
 * the parallel patterns would otherwise be blamed for.
 */
export function parallelRunsSuiteProblem(
  root: string,
  runsSuite: string,
  parallel: readonly string[],
  collects: (file: string) => boolean,
): string | null {
  if (!collects(runsSuite)) return null;
  const shown = parallel.map((p) => `'${p}'`).join(', ');
  return `auditbench({ parallel }): ${shown} takes in the runs suite (${path.relative(root, runsSuite)}), which measures, and a measurement never runs beside another file: name only your files that measure nothing, e.g. 'audit/records/**'`;
}
