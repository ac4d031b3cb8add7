import path from 'node:path';
import type { MarkerNames } from '../completeness/markers.ts';
import { type Clock, realClock } from '../machine/clock.ts';
import type { PluginProfile } from '../plugins/profile.ts';
import { runSteps, setGlobals } from '../plugins/steps.ts';
import type { ConnectionOptions, StartedServer } from '../servers/started-server.ts';
import { startSysbenchLoad } from '../workload/sysbench-load.ts';
import type { Workload } from '../workload/workload.ts';
import type { FaultFs } from './fault-fs.ts';
import type { FaultSupport } from './fault-profile.ts';
import { type Probe, startProbe } from './probe.ts';

/** What every fault of one plugin shares. */
export interface FaultContext {
  server: StartedServer;
  profile: PluginProfile;
  support: FaultSupport;
  format: NonNullable<PluginProfile['log']['format']>;
  workload: Workload;
  /** The account sysbench's load logs in as: the run's application account. */
  application: ConnectionOptions;
  fs: FaultFs;
  names: MarkerNames;
  progress: (message: string) => void;
  /** The clock the faults' windows, waits and the probe read: the real one unless a test hands in its own. */
  clock?: Clock;
}

export const clockOf = (ctx: FaultContext): Clock => ctx.clock ?? realClock;

/** The plugin's current log on the fault filesystem, relative to the datadir. */
export const logPath = (ctx: FaultContext): string =>
  path.join(ctx.fs.dir, path.basename(ctx.profile.log.file ?? 'log'));

/** Measuring settings, the log moved onto the fault filesystem, logging on: after the first start and every restart. */
export async function setUpLogging(ctx: FaultContext): Promise<void> {
  const { server, profile, support } = ctx;
  await runSteps(server, setGlobals(profile.measureSettings), `Applying ${profile.name} settings`);
  // Enable first: an enable that names the file (the general log's) would otherwise move it back.
  await runSteps(server, profile.enable, `Enabling ${profile.name}`);
  await runSteps(server, support.logIn(ctx.fs.dir), `Moving ${profile.name}'s log to ${ctx.fs.dir}`);
}

/** Commits so far: sysbench's oltp_read_write commits once per transaction. */
export async function commits(server: StartedServer): Promise<number> {
  const { rows } = await server.query("SHOW GLOBAL STATUS LIKE 'Com\\_commit'");
  return Number(rows[0]?.Value ?? 0);
}

export async function counters(ctx: FaultContext): Promise<Record<string, string>> {
  if (!ctx.support.statusLike) return {};
  const { rows } = await ctx.server.query(`SHOW GLOBAL STATUS LIKE '${ctx.support.statusLike}'`);
  return Object.fromEntries(rows.map((r) => [String(r.Variable_name), String(r.Value)]));
}

export async function isUp(server: StartedServer): Promise<boolean> {
  return server.query('SELECT 1').then(
    () => true,
    () => false,
  );
}

/** sysbench on the prepared tables and the probe, both running until `stop`. */
export interface Stage {
  probe: Probe;
  stop(): Promise<void>;
}

let nextMarker = 1;

/** Starts sysbench and, once its threads run, the probe; probe markers never repeat within a process. */
export async function startStage(ctx: FaultContext): Promise<Stage> {
  const load = await startSysbenchLoad(ctx.application, ctx.workload, {
    durationS: 600,
    what: 'the fault phase',
  });
  const probe = startProbe(ctx.server.connection, ctx.names, nextMarker, clockOf(ctx));
  nextMarker += 1_000_000;
  return {
    probe,
    async stop() {
      await probe.stop();
      await load.stop();
    },
  };
}
