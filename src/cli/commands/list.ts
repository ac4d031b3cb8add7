import { availableParallelism } from 'node:os';
import { loadEnvironment } from '../../config/env.ts';
import type { PluginProfile } from '../../plugins/profile.ts';
import { profiles } from '../../profiles/index.ts';
import type { ResolvedRun } from '../../runs/runs.ts';
import { getWorkload } from '../../workload/workloads.ts';
import { parseOwnArgs, refuse } from '../bad-args.ts';
import type { CliContext } from '../context.ts';
import { machineFacts, skipReason } from '../machine-facts.ts';
import { checkConfiguration } from '../preflight.ts';
import { describeConcurrency, formatListing, listedRun } from '../run-listing.ts';
import { userEnv } from '../user-paths.ts';
import { benchWorkload } from './bench.ts';

export const summary = 'the runs your configuration declares, resolved, and what this machine would skip';

export const usage = `usage: auditbench list [--json] [--config <file>]

Prints each run of the configuration as \`auditbench bench\` would measure it (the standard workload unless
AUDITBENCH_WORKLOAD is set): plugin, settings, startup options and option file (the groups read, and each
option kept, left out or moved, with why), the accounts its traffic logs in as, the threads, expectations that
differ from the profile's, the limit, and whether this machine would skip it and why. Starts no server.
Refuses what \`bench\` refuses of the configuration (an external target not said to be disposable, an option
it refuses, a buffer pool larger than this host's MemAvailable) with bench's line and exit 2; what the machine
lacks (the server binary, a plugin library) is shown as a skip instead.

  --config <file>  the configuration (default AUDITBENCH_CONFIG, else ./auditbench.config.ts)
  --json           one JSON document for machines: { config, workload, runs: [...] }
  -h, --help       this text
`;

/** The built-in profile a run starts from, by its id (a profile of the user's own has none to differ from). */
const builtInBase = (run: ResolvedRun): PluginProfile | null =>
  run.profileId === null ? null : (profiles[run.profileId as keyof typeof profiles] ?? null);

const options = {
  json: { type: 'boolean' },
  config: { type: 'string' },
  help: { type: 'boolean', short: 'h' },
} as const;

/** What `run` refuses before reading the configuration. */
export async function check(argv: string[]): Promise<string | null> {
  const parsed = parseOwnArgs(argv, options);
  return parsed.ok ? null : parsed.problem;
}

export async function run(argv: string[], context: CliContext): Promise<number> {
  const parsed = parseOwnArgs(argv, options);
  if (!parsed.ok) return refuse(context, 'list', parsed.problem);
  const { values } = parsed;
  if (values.help) {
    context.stdout(usage);
    return 0;
  }
  const env = userEnv({
    ...context,
    // The runs as `bench` measures them: its workload sets the threads a run is listed with.
    env: {
      ...context.env,
      AUDITBENCH_WORKLOAD: benchWorkload(context.env),
      ...(values.config ? { AUDITBENCH_CONFIG: values.config } : {}),
    },
  });
  const config = loadEnvironment(env);
  // The refusals `bench` makes of the configuration, by the same function: the same line, exit 2.
  const { runs, pluginDir } = await checkConfiguration(config);
  const facts = await machineFacts(config);
  const workload = getWorkload(config.workload);
  const machine = { cpus: availableParallelism(), external: config.target === 'external' };
  const listed = runs.map((r) =>
    listedRun(r, builtInBase(r), skipReason(r.profile, facts), describeConcurrency(r, workload, machine)),
  );
  // A supplied plugin's *.cnf reaches every local server's first start: shown as the runs' options are.
  const supplied = config.pluginDir && pluginDir ? { path: config.pluginDir, ...pluginDir } : null;
  const pluginDirText = supplied
    ? `plugin folder ${supplied.path}: startup options ${
        Object.entries(supplied.options)
          .map(([k, v]) => `${k}=${v}`)
          .join(', ') || 'none'
      }${supplied.lines.map((line) => `\n  ${line}`).join('')}\n\n`
    : '';
  context.stdout(
    values.json
      ? `${JSON.stringify({ config: config.configPath, workload: workload.name, pluginDir: supplied, runs: listed }, null, 2)}\n`
      : pluginDirText + formatListing(config.configPath, listed, workload.name),
  );
  return 0;
}
