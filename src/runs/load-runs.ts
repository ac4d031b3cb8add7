import { createHash } from 'node:crypto';
import { readFile, stat } from 'node:fs/promises';
import path from 'node:path';
import { z } from 'zod';
import { coresSchema, threadsSchema } from '../config/concurrency.ts';
import type { Environment } from '../config/env.ts';
import { overheadLimitPct } from '../config/lists.ts';
import {
  type MeasuredTrafficInput,
  measuredTrafficSchema,
  mergeMeasuredTraffic,
} from '../config/measured-traffic.ts';
import { OptionFileError, parseOptionFile } from '../config/option-file.ts';
import {
  defaultHistoryPolicy,
  type HistoryPolicy,
  historyPolicySchema,
  type RunPolicy,
  runPolicyOf,
  runPolicySchema,
} from '../config/policy.ts';
import { type ProjectionTraffic, trafficSchema } from '../config/projection-traffic.ts';
import type { ServerGroups } from '../config/server-help.ts';
import { settingProblem } from '../config/settings.ts';
import type { PluginProfile, ProfileRegistry } from '../plugins/profile.ts';
import { localOptionCatalogue } from '../servers/option-catalogue.ts';
import { pluginLibraries } from '../servers/plugin-dir.ts';
import { defaultTraffic } from './default-traffic.ts';
import type { AuditbenchConfig, RunConfig } from './define-config.ts';
import { defaultRunId, type LoadedOptionFile, type ResolvedRun, RUN_ID, resolveRun } from './runs.ts';

const settingValue = z.union([z.number(), z.boolean(), z.string(), z.array(z.string())]);
const settings = z.record(z.string(), settingValue).superRefine((value, ctx) => {
  for (const [name, v] of Object.entries(value)) {
    const problem = settingProblem(name, v);
    if (problem) ctx.addIssue({ code: 'custom', message: problem, path: [name] });
  }
});
// A custom profile carries functions (rotation), so only its shape is checked here; TypeScript checks the rest.
const customProfile = z.looseObject({
  name: z.string().min(1),
  title: z.string().min(1),
  install: z.array(z.unknown()),
  enable: z.array(z.unknown()),
  disable: z.array(z.unknown()),
  measureSettings: z.record(z.string(), z.string()),
  expected: z.looseObject({}),
  log: z.looseObject({}),
  maxOverheadPct: overheadLimitPct,
});
const p99IncreaseAdvice =
  'must be a number of percent above 0 and at most 1000 (how far p99 may rise), e.g. 25';
const p99IncreaseLimitPct = z
  .number({ error: p99IncreaseAdvice })
  .gt(0, { error: p99IncreaseAdvice })
  .max(1000, { error: p99IncreaseAdvice });
/** A run's fields; `plugin` names one of `builtIn` (null: any name, when only the traffic is read) or is a profile. */
const runSchemaFor = (builtIn: readonly string[] | null) =>
  z.strictObject({
    id: z.string().regex(RUN_ID, 'must be 1–64 lowercase letters, digits, . _ or -').optional(),
    title: z
      .string()
      .trim()
      .min(1)
      // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what it refuses
      .refine((title) => !/[\u0000-\u001f\u007f]/.test(title), 'must be one line, without control characters')
      .optional(),
    plugin: z.unknown().transform((plugin, ctx) => {
      if (typeof plugin === 'string') {
        const key = plugin.trim().toLowerCase();
        if (builtIn === null || builtIn.includes(key)) return key;
        ctx.addIssue({
          code: 'custom',
          message: `is not a built-in profile: use one of ${builtIn.join(', ')}`,
        });
        return z.NEVER;
      }
      const custom = customProfile.safeParse(plugin);
      if (custom.success) return custom.data;
      const issue = custom.error.issues[0];
      ctx.addIssue({
        code: 'custom',
        message: `must be a built-in profile's name or a profile object (${issue?.path.join('.') || 'it'}: ${issue?.message})`,
      });
      return z.NEVER;
    }),
    settings: settings.optional(),
    startupOptions: settings.optional(),
    cnf: z.strictObject({ kind: z.literal('option-file'), path: z.string().min(1) }).optional(),
    expected: z.looseObject({}).optional(),
    maxOverheadPct: overheadLimitPct.optional(),
    maxP99IncreasePct: p99IncreaseLimitPct.optional(),
    traffic: measuredTrafficSchema.optional(),
    threads: threadsSchema.optional(),
    cores: coresSchema.optional(),
    openLoop: z.boolean({ error: 'must be true or false' }).optional(),
    ...runPolicySchema,
  });
const projectionKeys = Object.keys(trafficSchema.shape) as (keyof ProjectionTraffic)[];
const configSchemaFor = (builtIn: readonly string[] | null) =>
  z.strictObject({
    runs: z.array(runSchemaFor(builtIn)).min(1, 'must declare at least one run'),
    traffic: trafficSchema.partial().extend(measuredTrafficSchema.shape).optional(),
    maxOverheadPct: overheadLimitPct.optional(),
    threads: threadsSchema.optional(),
    cores: coresSchema.optional(),
    ...runPolicySchema,
    ...historyPolicySchema,
  });
type ParsedConfig = z.infer<ReturnType<typeof configSchemaFor>>;

/** One line naming the file, the field and the value, as the env settings' errors do. */
function describeIssue(file: string, input: unknown, issue: z.core.$ZodIssue): string {
  const where = issue.path
    .map((p) => (typeof p === 'number' ? `[${p}]` : `.${String(p)}`))
    .join('')
    .replace(/^\./, '');
  let value: unknown = input;
  for (const p of issue.path) value = (value as Record<PropertyKey, unknown> | undefined)?.[p as PropertyKey];
  const shown = value === undefined ? 'nothing' : JSON.stringify(value)?.slice(0, 80);
  return `${file}: ${where || 'the exported configuration'} ${issue.message}; got ${shown}`;
}

/** How the configuration module is imported: through a Vite module runner, or (in Vitest's reporter) Vitest's own. */
export type ImportModule = (file: string) => Promise<{ default?: unknown }>;

/** Where a path the configuration names (`cnf`, `traffic.script`) is read; the gate's base reads its own tree's. */
export type ResolveFile = (configDir: string, given: string) => Promise<string>;
const besideConfig: ResolveFile = async (configDir, given) => path.resolve(configDir, given);
/**
 * The configuration is imported as Vitest imports its own `vitest.config.ts`: through a Vite module runner, which
 * transforms TypeScript as an ES module whatever the package's `"type"` (a repository made with `npm init -y` has
 * none), writes no file beside it (the gate's base worktree is read-only to us), and leaves packages in
 * node_modules to Node. `configFile: false`: a `vite.config.*` in the DBA's repository is theirs, not ours.
 */
const runnerModule: ImportModule = async (file) => {
  const { runnerImport } = await import('vite');
  const { module } = await runnerImport<{ default?: unknown }>(file, {
    configFile: false,
    envFile: false,
    logLevel: 'silent',
    root: path.dirname(file),
  });
  return module;
};

async function importConfig(file: string, importModule: ImportModule = runnerModule): Promise<unknown> {
  const info = await stat(file).catch(() => null);
  if (!info?.isFile()) {
    throw new Error(
      `AUDITBENCH_CONFIG: no configuration file at ${file}; write one with defineConfig (see README, "Configuration")`,
    );
  }
  let module: { default?: unknown };
  try {
    module = await importModule(file);
  } catch (error) {
    const why = error instanceof Error ? error.message.split('\n')[0] : String(error);
    throw new Error(`${file} could not be loaded: ${why}`, { cause: error });
  }
  if (module.default === undefined)
    throw new Error(`${file} has no default export: export default defineConfig({ runs: [...] })`);
  return module.default;
}

async function readOptionFile(
  configDir: string,
  ref: { path: string },
  where: string,
  resolveFile: ResolveFile,
  groups: ServerGroups | undefined,
): Promise<LoadedOptionFile> {
  const file = await resolveFile(configDir, ref.path);
  const text = await readFile(file, 'utf8').catch((error: NodeJS.ErrnoException) => {
    throw new Error(
      `${where}: cannot read option file ${file} (${error.code ?? error.message}); check the path, relative to the configuration file`,
    );
  });
  try {
    return { path: ref.path, text, parsed: parseOptionFile(text, ref.path, groups) };
  } catch (error) {
    if (error instanceof OptionFileError) throw new Error(`${where}: ${error.message}`);
    throw error;
  }
}

async function readConfigFile(
  file: string,
  builtIn: readonly string[] | null,
  importModule?: ImportModule,
): Promise<ParsedConfig> {
  const raw = await importConfig(file, importModule);
  const parsed = configSchemaFor(builtIn).safeParse(raw);
  if (!parsed.success) throw new Error(describeIssue(file, raw, parsed.error.issues[0] as z.core.$ZodIssue));
  return parsed.data;
}

/** The traffic the per-event projection uses: the configuration's `traffic`, else the illustrative default. */
export async function loadProjectionTraffic(
  config: Pick<Environment, 'configPath'>,
): Promise<ProjectionTraffic> {
  const given = (await readConfigFile(path.resolve(config.configPath), null)).traffic ?? {};
  const projection = Object.fromEntries(
    Object.entries(given).filter(([k]) => projectionKeys.includes(k as keyof ProjectionTraffic)),
  );
  if (Object.keys(projection).length === 0) return defaultTraffic;
  return trafficSchema.parse({ ...defaultTraffic, name: 'custom', ...projection });
}

/** A run's sysbench script, read so that its content is part of the run's configuration. */
async function readScript(
  configDir: string,
  given: string | undefined,
  where: string,
  resolveFile: ResolveFile,
): Promise<{ path: string; sha256: string } | null> {
  if (given === undefined) return null;
  const file = await resolveFile(configDir, given);
  const text = await readFile(file, 'utf8').catch((error: NodeJS.ErrnoException) => {
    throw new Error(
      `${where}: cannot read sysbench script ${file} (${error.code ?? error.message}); check the path, relative to the configuration file`,
    );
  });
  return { path: given, sha256: createHash('sha256').update(text).digest('hex') };
}

const defaultedFields = [
  'maxOverheadPct',
  'threads',
  'cores',
  'inconclusive',
  'idle',
  'interference',
] as const;

/** The top level's limit, concurrency and policy, which every run that sets none of its own takes. */
const runDefaults = (parsed: ParsedConfig) =>
  Object.fromEntries(
    defaultedFields.flatMap((field) => (parsed[field] === undefined ? [] : [[field, parsed[field]]])),
  );

/** A run's fields that are set: a run's `threads: undefined` leaves the top level's. */
const definedFields = (run: object) =>
  Object.fromEntries(Object.entries(run).filter(([, v]) => v !== undefined));

/**
 * Reads, validates and resolves the configuration file's runs; every problem is one line naming the field. A run's
 * `plugin: 'name'` is looked up in `registry` (the project's is src/profiles/index.ts).
 */
export async function loadRuns(
  config: Pick<Environment, 'configPath' | 'runIds'> &
    Partial<Pick<Environment, 'mysqldPath' | 'searchPath' | 'pluginDir'>>,
  registry: ProfileRegistry,
  { resolveFile = besideConfig }: { resolveFile?: ResolveFile } = {},
): Promise<ResolvedRun[]> {
  const file = path.resolve(config.configPath);
  const parsed = await readConfigFile(file, Object.keys(registry));
  // The server's own option names classify a DBA's options (abbreviations included); read only when some are given.
  const hasOutside = parsed.runs.some((run) => run.cnf || run.startupOptions || run.settings);
  const catalogue = hasOutside
    ? await localOptionCatalogue(config.mysqldPath ?? null, config.searchPath ?? '')
    : null;
  // The groups the server reads (its own --help, else the recorded list) and the plugin libraries it can load.
  const groups = catalogue?.groups ?? undefined;
  const libraries = hasOutside ? await pluginLibraries(catalogue, config.pluginDir ?? null) : null;
  const runs: ResolvedRun[] = [];
  for (const [index, run] of parsed.runs.entries()) {
    const base: PluginProfile =
      typeof run.plugin === 'string'
        ? (registry[run.plugin] as PluginProfile)
        : (run.plugin as unknown as PluginProfile);
    const where = `${path.basename(file)}: runs[${index}]`;
    const optionFile = run.cnf
      ? await readOptionFile(path.dirname(file), run.cnf, `${where}.cnf`, resolveFile, groups)
      : null;
    const topTraffic = parsed.traffic as MeasuredTrafficInput | undefined;
    const runTraffic = run.traffic as MeasuredTrafficInput | undefined;
    const scriptPath = runTraffic?.script ?? topTraffic?.script;
    const script = await readScript(path.dirname(file), scriptPath, `${where}.traffic.script`, resolveFile);
    const traffic = mergeMeasuredTraffic(topTraffic, runTraffic, script);
    const resolved = resolveRun(
      { ...runDefaults(parsed), ...definedFields(run) } as RunConfig,
      base,
      optionFile,
      traffic,
      { where, catalogue, libraries },
    );
    const twin = runs.find((r) => r.id === resolved.id);
    if (twin) {
      throw new Error(
        `${where}.id '${resolved.id}' is used by another run too: give each run its own id (e.g. id: '${defaultRunId(run.plugin as RunConfig['plugin'], base)}-2')`,
      );
    }
    runs.push(resolved);
  }
  if (!config.runIds) return runs;
  const unknown = config.runIds.filter((id) => !runs.some((r) => r.id === id));
  if (unknown.length > 0) {
    throw new Error(
      `AUDITBENCH_RUNS names ${unknown.join(', ')}, which ${path.basename(file)} does not declare; its runs are ${runs.map((r) => r.id).join(', ')}`,
    );
  }
  return runs.filter((r) => config.runIds?.includes(r.id));
}

/** The configuration's top-level policy: how the history judges a change, and what a run that sets none goes by. */
export interface Policy {
  history: HistoryPolicy;
  run: RunPolicy;
}

/**
 * Reads the configuration's top-level policy, with AUDITBENCH_MAX_REGRESSION_PP (CI's input) over its
 * `maxRegressionPp`: `say` gets the line that says so.
 */
export async function loadPolicy(
  config: Pick<Environment, 'configPath' | 'maxRegressionPp'>,
  options: { importModule?: ImportModule; say?: (line: string) => void } = {},
): Promise<Policy> {
  const parsed = await readConfigFile(path.resolve(config.configPath), null, options.importModule);
  const fromFile = parsed.maxRegressionPp ?? defaultHistoryPolicy.maxRegressionPp;
  if (config.maxRegressionPp !== null && fromFile !== config.maxRegressionPp) {
    options.say?.(
      `AUDITBENCH_MAX_REGRESSION_PP=${config.maxRegressionPp} is used over ${path.basename(config.configPath)}'s maxRegressionPp (${fromFile ?? 'unset'})`,
    );
  }
  return {
    history: {
      maxRegressionPp: config.maxRegressionPp ?? fromFile,
      maxCountedRisePp: parsed.maxCountedRisePp ?? defaultHistoryPolicy.maxCountedRisePp,
    },
    run: runPolicyOf(parsed),
  };
}

export type { AuditbenchConfig };
