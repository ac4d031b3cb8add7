import { prepareMeasurement } from '../bench/measure-overhead.ts';
import { type PlanInputs, planFor } from '../bench/measure-plan.ts';
import { measureRun } from '../bench/pipeline.ts';
import { pluginSubject } from '../bench/subject.ts';
import type { InterferencePolicy } from '../config/interference-policy.ts';
import type { PluginProfile } from '../plugins/profile.ts';
import type { Measurement } from '../results/schema.ts';
import type { ConnectionOptions, StartedServer } from '../servers/started-server.ts';
import { runnerAs } from '../workload/run-as.ts';
import { liveSeams, measuringSeams, type Seams } from './seams.ts';

/** Something that watches the server while the plugin is measured (a processlist sampler), and what it saw. */
export interface Watch<T> {
  stop(): Promise<T>;
}

export interface AsApplicationOptions<T> {
  /** The plan's inputs but the arms, which come from the profile. */
  plan: Omit<PlanInputs, 'arms'>;
  /** The account sysbench loads its tables and runs as. */
  application: ConnectionOptions;
  limitPct: number;
  interference?: InterferencePolicy;
  progress: (message: string) => void;
  /** Started once the tables are loaded, stopped once the measurement ends. */
  watch?: () => Watch<T>;
  /** The innermost sysbench, the probe and the clock: live unless a unit test hands in its own. */
  seams?: Partial<Pick<Seams, 'sysbench' | 'probe' | 'clock'>>;
}

/**
 * One plugin measured on a server the caller started and installed it on, outside a run's sequence: the tables
 * loaded as the application account, then pipeline.ts's measureRun as that account (the profile's settings applied
 * first), with no A/A. traffic-accounts (the accounts sysbench and the checks use) and supplied-plugin (a library from
 * AUDITBENCH_PLUGIN_DIR) each measure one plugin this way; a configured run goes through runs-on-server.ts.
 */
export async function measureAsApplication<T = never>(
  server: StartedServer,
  profile: PluginProfile,
  options: AsApplicationOptions<T>,
): Promise<{ measurement: Measurement; watched: T | null }> {
  const { application, progress } = options;
  const seams = { ...liveSeams, ...options.seams };
  const runner = runnerAs(application, seams.sysbench);
  const planned = planFor({ ...options.plan, arms: pluginSubject(profile).arms });
  await prepareMeasurement(server, planned, progress, runner);
  const watching = options.watch?.() ?? null;
  const measurement = await measureRun(server, profile, planned, {
    limitPct: options.limitPct,
    calibration: null,
    progress,
    ...(options.interference ? { interference: options.interference } : {}),
    ...measuringSeams(seams, runner),
  });
  return { measurement, watched: watching ? await watching.stop() : null };
}
