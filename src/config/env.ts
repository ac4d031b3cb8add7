import { isIPv4 } from 'node:net';
import { z } from 'zod';
import { type TargetName, targetNames, type WorkloadName, workloadNames } from './lists.ts';
import { type MatrixSelection, matrixSelectionAdvice, parseMatrixSelection } from './matrix-selection.ts';
import { retiredVariableProblem } from './policy.ts';
import { envValueProblem } from './setting-names.ts';

/**
 * The environment, validated: where auditbench runs and on what (target, server, folders, which runs and workload
 * for CI). What a measurement decides (limits, threads, what a doubtful result does) is auditbench.config.ts's
 * (src/config/policy.ts). Nothing else in src/ reads process.env.
 */
export interface Environment {
  workload: WorkloadName;
  /** Server binary to run for the local target; null means search PATH. */
  mysqldPath: string | null;
  reportDir: string;
  /** Folder with plugin libraries to try besides the server's own (AUDITBENCH_PLUGIN_DIR). */
  pluginDir: string | null;
  /** PATH, where the server binary and sysbench are searched. */
  searchPath: string;
  /**
   * AUDITBENCH_MAX_REGRESSION_PP, kept for CI (the Action's input): over auditbench.config.ts's `maxRegressionPp`,
   * saying so; null leaves the file's.
   */
  maxRegressionPp: number | null;
  /**
   * AUDITBENCH_GATE_INCONCLUSIVE, CI's say over what an undecided gate does: fail or pass, over auditbench.config.ts's
   * `inconclusive` for `auditbench gate` only (docs/gate.md says why it fails by default); null leaves the file's.
   */
  gateInconclusive: 'fail' | 'pass' | null;
  /** The git ref history comparisons measure against: AUDITBENCH_BASE_REF, else AUDITBENCH_DEFAULT_BASE_REF. */
  baseRef: string;
  /** Branch to record in history when git cannot tell, as in CI's detached checkout. */
  gitBranch: string | null;
  /** GitHub Actions' job summary file: summary.md is appended to it. */
  githubStepSummary: string | null;
  /** Running in GitHub Actions: print annotations. */
  githubActions: boolean;
  /** Which server target startServer uses (AUDITBENCH_TARGET). */
  target: TargetName;
  /** Images the container target runs; the first is the default (AUDITBENCH_IMAGES). */
  images: [string, ...string[]];
  /** The server the external target connects to (AUDITBENCH_DSN). */
  dsn: Dsn | null;
  /** Shell command that restarts the external server (AUDITBENCH_RESTART_CMD). */
  restartCmd: string | null;
  /**
   * AUDITBENCH_DSN_DISPOSABLE=1: the server at AUDITBENCH_DSN may be spared, so runs may install and uninstall
   * plugins, write, rotate logs and restart it. Unset, the external target is refused before it connects.
   */
  dsnDisposable: boolean;
  /** The configuration file that declares the runs (AUDITBENCH_CONFIG), relative to the working directory. */
  configPath: string;
  /** Only these run ids (AUDITBENCH_RUNS, comma-separated); null runs every run of the configuration. */
  runIds: [string, ...string[]] | null;
  /** AUDITBENCH_DOCKER=0: the user opted out of containers, so missing images are skipped, not failures. */
  dockerOptOut: boolean;
  /** AUDITBENCH_MATRIX: the matrix's cells to measure (src/config/matrix-selection.ts); unset: the sample. */
  matrix: MatrixSelection;
  /**
   * AUDITBENCH_FAULTS: the fault sets the faults suite runs: disk (the log's filesystem, the default) and receiver (a
   * syslog run's own rsyslogd paused, killed, its socket removed; docs/faults.md).
   */
  faultSets: FaultSet[];
  /** AUDITBENCH_SETTINGS_SWEEP: the settings sweep's configurations, its small covering set or every one. */
  settingsSweep: 'small' | 'full';
  /**
   * AUDITBENCH_COUNTED: the counted channel (src/counted) beside each local run's wall clock. auto counts where
   * valgrind is installed and the target is local, and says why not elsewhere; on fails a run it cannot count.
   */
  counted: 'auto' | 'on' | 'off';
  /**
   * AUDITBENCH_LARGE_POOL=1: a run may ask for an InnoDB buffer pool larger than the host's MemAvailable (refused
   * otherwise, so that a production option file never starves the live server beside it).
   */
  largePool: boolean;
}

export type { TargetName };

/** The fault sets a DBA can ask the faults suite for (AUDITBENCH_FAULTS). */
export const faultSets = ['disk', 'receiver'] as const;
export type FaultSet = (typeof faultSets)[number];

/** A parsed AUDITBENCH_DSN; the host is always loopback. */
export interface Dsn {
  host: string;
  port: number;
  user: string;
  password: string;
}

// Loose on purpose: Docker gives the precise error; this only catches typos such as spaces or empty entries.
const imageRef = /^[A-Za-z0-9][\w.:/@-]*$/;

type Env = Record<string, string | undefined>;
// Plain decimals only: Number() would also take 0x1e, 1e1, Infinity and ' '.
const decimal = /^(\d+(\.\d*)?|\.\d+)$/;

/** A variable's schema and the advice shown when a value fails it. */
export interface Field<T> {
  schema: z.ZodType<T, string>;
  expects: string;
  /** How the value is quoted in an error, e.g. with the password masked. */
  show?: (raw: string) => string;
}

/** A whole number from `min` to `max`. */
export const wholeNumber = (min: number, max: number): Field<number> => ({
  schema: z.string().trim().regex(/^\d+$/).transform(Number).pipe(z.number().int().min(min).max(max)),
  expects: `must be a whole number from ${min} to ${max}`,
});

/** A comma-separated list of some of `names`, each kept once. */
export const someOf = <T extends string>(names: readonly [T, ...T[]]): Field<T[]> => ({
  schema: z
    .string()
    .transform((raw) => raw.split(',').map((name) => name.trim()))
    .pipe(z.array(z.enum(names)).min(1))
    .transform((list) => [...new Set(list)]),
  expects: `must be a comma-separated list of ${names.join(', ')}`,
});

const fields = {
  workload: { schema: z.enum(workloadNames), expects: `must be one of ${workloadNames.join(', ')}` },
  docker: { schema: z.enum(['0', '1']), expects: 'must be 0 (no containers) or 1 (containers wanted)' },
  largePool: {
    schema: z.enum(['0', '1']),
    expects: "must be 1 (a run's buffer pool may exceed MemAvailable) or 0",
  },
  disposable: {
    schema: z.enum(['0', '1']),
    expects: 'must be 1 (the server at AUDITBENCH_DSN is one you can spare) or 0',
  },
  nonEmpty: { schema: z.string().trim().min(1), expects: 'must not be empty' },
  restartCmd: {
    schema: z
      .string()
      .trim()
      .min(1, 'must not be empty')
      .superRefine((command, ctx) => {
        // The two values the command used to read as variables come as arguments now: a command written for them
        // would restart with an empty mode and option file.
        const used = /\$\{?AUDITBENCH_(RESTART|CNF)\b/.exec(command)?.[1];
        if (used === undefined) return;
        const now = used === 'RESTART' ? '$1 (graceful or kill)' : '$2 (the option file to add)';
        ctx.addIssue({ code: 'custom', message: `reads a variable auditbench no longer sets: use ${now}` });
      }),
    expects: 'must not be empty',
  },
  gateInconclusive: {
    schema: z.enum(['fail', 'pass']),
    expects:
      'must be fail (an interval that straddles the allowed regression fails the gate, the default) or pass',
  },
  percentagePoints: {
    schema: z.string().trim().regex(decimal).transform(Number).pipe(z.number().gt(0).max(100)),
    expects: 'must be a number of percentage points above 0 and at most 100, e.g. 5',
  },
  // GitHub sets some variables to '' where they do not apply (GITHUB_HEAD_REF outside pull requests).
  optional: { schema: z.string().transform((raw) => raw.trim() || null), expects: 'is optional' },
  target: { schema: z.enum(targetNames), expects: `must be one of ${targetNames.join(', ')}` },
  images: {
    schema: z
      .string()
      .transform((raw) => raw.split(',').map((image) => image.trim()))
      .pipe(z.tuple([z.string().regex(imageRef)], z.string().regex(imageRef))),
    expects: 'must be a comma-separated list of images, e.g. auditbench/mariadb:10.11,auditbench/mysql:9.7',
  },
  matrix: {
    schema: z.string().transform((raw, ctx) => {
      try {
        return parseMatrixSelection(raw);
      } catch {
        ctx.issues.push({ code: 'custom', message: matrixSelectionAdvice, input: raw });
        return z.NEVER;
      }
    }),
    expects: matrixSelectionAdvice,
  },
  faultSets: {
    ...someOf(faultSets),
    expects:
      "must be a comma-separated list of disk (the log's filesystem filled, frozen, the file moved) and receiver (a syslog run's receiver paused, killed, its socket removed)",
  },
  settingsSweep: {
    schema: z.enum(['small', 'full']),
    expects: 'must be small (the covering set `test` runs) or full (every configuration)',
  },
  counted: {
    schema: z.enum(['auto', 'on', 'off']),
    expects:
      'must be auto (count local runs where valgrind is installed), on (count every local run, or fail it) or off',
  },
  runIds: {
    schema: z
      .string()
      .transform((raw) => raw.split(',').map((id) => id.trim()))
      .pipe(
        z.tuple([z.string().regex(/^[a-z0-9][a-z0-9._-]*$/)], z.string().regex(/^[a-z0-9][a-z0-9._-]*$/)),
      ),
    expects:
      'must be a comma-separated list of run ids from the configuration file, e.g. server_audit,general_log',
  },
  dsn: {
    schema: z.string().transform(parseDsn),
    expects: 'must look like mysql://user:password@127.0.0.1:3306',
    show: maskPassword,
  },
} satisfies Record<string, Field<unknown>>;

// An address, never a name that merely looks like one (127.0.0.1.evil.example, 127.1.2.300).
const isLoopback = (host: string): boolean =>
  host === 'localhost' ||
  host === '[::1]' ||
  (isIPv4(host) && host.startsWith('127.') && host.split('.').length === 4);

function parseDsn(raw: string, ctx: z.RefinementCtx<string>): Dsn {
  const fail = (message: string): never => {
    ctx.issues.push({ code: 'custom', message, input: raw });
    return z.NEVER as never;
  };
  const url = URL.canParse(raw.trim()) ? new URL(raw.trim()) : null;
  if (!url || !['mysql:', 'mariadb:'].includes(url.protocol) || !url.hostname || !url.username) {
    return fail(fields.dsn.expects);
  }
  if (!isLoopback(url.hostname)) {
    return fail(
      `host '${url.hostname}' is refused: servers listen on 127.0.0.1 or in containers you started`,
    );
  }
  if (url.port === '0')
    return fail('port 0 is not a port a server listens on: give the real one, e.g. :3306');
  if (url.pathname !== '' && url.pathname !== '/') {
    return fail(
      `must not name a database (${url.pathname.slice(1)}): auditbench works in its own schema, auditbench`,
    );
  }
  const decoded = [url.username, url.password].map(decodeOrNull);
  const [user, password] = decoded;
  if (user === null || user === undefined || password === null || password === undefined) {
    return fail('has a malformed %-escape in the user or password: write % as %25, @ as %40, : as %3A');
  }
  return {
    // sysbench's client library takes 'localhost' to mean the unix socket; the DSN means TCP.
    host: url.hostname === 'localhost' ? '127.0.0.1' : url.hostname.replace(/^\[|\]$/g, ''),
    port: url.port ? Number(url.port) : 3306,
    user,
    password,
  };
}

function decodeOrNull(part: string): string | null {
  try {
    return decodeURIComponent(part);
  } catch {
    return null;
  }
}

/**
 * The DSN as an error may quote it: whatever sits between '//' (or the start) and the last '@' keeps only the
 * user, and with no '@' everything after the first ':' past the scheme is hidden, so no spelling leaks a password.
 */
export function maskPassword(raw: string): string {
  const schemeEnd = raw.indexOf('://');
  const start = schemeEnd === -1 ? 0 : schemeEnd + 3;
  const at = raw.lastIndexOf('@');
  if (at >= start) {
    const userinfo = raw.slice(start, at);
    const colon = userinfo.indexOf(':');
    const shown = colon === -1 ? userinfo : `${userinfo.slice(0, colon)}:***`;
    return `${raw.slice(0, start)}${shown}${raw.slice(at)}`;
  }
  const colon = raw.indexOf(':', start);
  return colon === -1 ? raw : `${raw.slice(0, colon)}:***`;
}

/** Reads one variable; a bad value becomes a one-line error naming the variable, the value and what to use. */
export function read<T, F>(env: Env, name: string, field: Field<T>, fallback: F): T | F {
  const raw = env[name];
  if (raw === undefined) return fallback;
  const parsed = field.schema.safeParse(raw);
  if (parsed.success) return parsed.data;
  const issue = parsed.error.issues[0];
  const problem = issue?.code === 'custom' ? issue.message : field.expects;
  throw new Error(`${name} ${problem}; got '${field.show?.(raw) ?? raw}'`);
}

export function loadEnvironment(env: Env = process.env): Environment {
  const retired = retiredVariableProblem(env);
  if (retired) throw new Error(retired);
  const target = read(env, 'AUDITBENCH_TARGET', fields.target, 'local');
  const dsn = read(env, 'AUDITBENCH_DSN', fields.dsn, null);
  if (target === 'external' && !dsn) {
    throw new Error(
      'AUDITBENCH_TARGET=external needs AUDITBENCH_DSN, e.g. mysql://root:secret@127.0.0.1:3306; got none',
    );
  }
  return {
    ...commonSettings(env),
    target,
    images: read(env, 'AUDITBENCH_IMAGES', fields.images, ['auditbench/mariadb:10.11']),
    dsn,
    restartCmd: read(env, 'AUDITBENCH_RESTART_CMD', fields.restartCmd, null),
    dsnDisposable: read(env, 'AUDITBENCH_DSN_DISPOSABLE', fields.disposable, '0') === '1',
  };
}

/**
 * Why the external target may not be used, or null: a server auditbench did not start is written to (plugins
 * installed and uninstalled, globals set, tables loaded, logs rotated, restarts) only when the user says it is
 * disposable. One line, before anything connects.
 */
export function externalTargetRefusal(
  config: Pick<Environment, 'target' | 'dsn' | 'dsnDisposable'>,
): string | null {
  if (config.target !== 'external' || config.dsnDisposable) return null;
  const where = config.dsn ? `${config.dsn.host}:${config.dsn.port}` : 'AUDITBENCH_DSN';
  return `AUDITBENCH_TARGET=external: auditbench did not start the server at ${where}, and its runs install and uninstall plugins, set globals, load tables, rotate logs and restart it: set AUDITBENCH_DSN_DISPOSABLE=1 if it is a server you can spare, else use AUDITBENCH_TARGET=local or container`;
}

/**
 * The command line's environment: where the user ran the command (AUDITBENCH_USER_DIR, which the `auditbench` launcher
 * sets; null when it was not set) and every other variable, handed to the subcommands and the processes they start.
 */
export function launchEnvironment(env: Env = process.env): { userDir: string | null; env: Env } {
  const { AUDITBENCH_USER_DIR, ...rest } = env;
  return { userDir: AUDITBENCH_USER_DIR || null, env: rest };
}

/**
 * The Vitest process's own environment, for auditbench's Vitest plugin (src/vitest/plugin.ts): it fills in defaults
 * a run needs (the values the user set win) and hands it to the preflight and the reporters. A value that is not a
 * string is refused (the plugin says so first), never written as the text "undefined".
 */
export function vitestProcessEnv(defaults: Record<string, unknown>): Env {
  for (const [name, value] of Object.entries(defaults)) {
    const problem = envValueProblem(name, value);
    if (problem) throw new Error(problem);
    process.env[name] ??= value as string;
  }
  return process.env;
}

/**
 * testcontainers reads these itself. Ryuk, its reaper container, cannot be pulled where no registry answers,
 * and the harness removes its containers itself; published ports are reached on localhost. A value the user
 * set wins.
 */
export function applyContainerRuntimeDefaults(env: Env = process.env): void {
  env.TESTCONTAINERS_RYUK_DISABLED ??= 'true';
  env.TESTCONTAINERS_HOST_OVERRIDE ??= 'localhost';
}

function commonSettings(
  env: Env,
): Omit<Environment, 'target' | 'images' | 'dsn' | 'restartCmd' | 'dsnDisposable'> {
  return {
    workload: read(env, 'AUDITBENCH_WORKLOAD', fields.workload, 'smoke'),
    mysqldPath: read(env, 'AUDITBENCH_MYSQLD', fields.nonEmpty, null),
    configPath: read(env, 'AUDITBENCH_CONFIG', fields.nonEmpty, 'auditbench.config.ts'),
    runIds: read(env, 'AUDITBENCH_RUNS', fields.runIds, null),
    dockerOptOut: read(env, 'AUDITBENCH_DOCKER', fields.docker, '1') === '0',
    matrix: read(env, 'AUDITBENCH_MATRIX', fields.matrix, { kind: 'sample' } as MatrixSelection),
    faultSets: read(env, 'AUDITBENCH_FAULTS', fields.faultSets, ['disk'] as FaultSet[]),
    settingsSweep: read(env, 'AUDITBENCH_SETTINGS_SWEEP', fields.settingsSweep, 'small'),
    counted: read(env, 'AUDITBENCH_COUNTED', fields.counted, 'auto'),
    largePool: read(env, 'AUDITBENCH_LARGE_POOL', fields.largePool, '0') === '1',
    reportDir: read(env, 'AUDITBENCH_REPORT_DIR', fields.nonEmpty, 'reports'),
    pluginDir: read(env, 'AUDITBENCH_PLUGIN_DIR', fields.nonEmpty, null),
    searchPath: env.PATH ?? '',
    ...reportSettings(env),
  };
}

function reportSettings(env: Env) {
  const optional = (name: string) => read(env, name, fields.optional, null);
  return {
    maxRegressionPp: read(env, 'AUDITBENCH_MAX_REGRESSION_PP', fields.percentagePoints, null),
    gateInconclusive: read(env, 'AUDITBENCH_GATE_INCONCLUSIVE', fields.gateInconclusive, null),
    // Unset, the repository's default branch, which `./auditbench` finds and passes as AUDITBENCH_DEFAULT_BASE_REF.
    baseRef: read(
      env,
      'AUDITBENCH_BASE_REF',
      fields.nonEmpty,
      read(env, 'AUDITBENCH_DEFAULT_BASE_REF', fields.nonEmpty, 'origin/main'),
    ),
    gitBranch:
      optional('AUDITBENCH_GIT_BRANCH') ?? optional('GITHUB_HEAD_REF') ?? optional('GITHUB_REF_NAME'),
    githubStepSummary: optional('GITHUB_STEP_SUMMARY'),
    githubActions: env.GITHUB_ACTIONS === 'true',
  };
}
