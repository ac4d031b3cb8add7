import type { MarkerNames } from '../completeness/markers.ts';
import type { Clock } from '../machine/clock.ts';
import type { LogFormat } from '../plugins/logs/index.ts';
import type { PluginProfile } from '../plugins/profile.ts';
import { runSteps, setGlobals } from '../plugins/steps.ts';
import type { ConnectionOptions, ReceiverControl, StartedServer } from '../servers/started-server.ts';
import type { Workload } from '../workload/workload.ts';

/** What every receiver fault of one run shares. */
export interface ReceiverContext {
  server: StartedServer;
  profile: PluginProfile;
  receiver: ReceiverControl;
  /** The receiver's file, relative to the datadir, and its format. */
  file: string;
  format: LogFormat;
  workload: Workload;
  application: ConnectionOptions;
  names: MarkerNames;
  progress: (message: string) => void;
  clock: Clock;
}

/** The run's settings and logging on: after the phase's set-up and after a server restart. */
export async function enableLogging(ctx: ReceiverContext): Promise<void> {
  const { server, profile } = ctx;
  await runSteps(server, setGlobals(profile.measureSettings), `Applying ${profile.name} settings`);
  await runSteps(server, profile.enable, `Enabling ${profile.name}`);
}
