// What the server says when a plugin logged nothing of the traffic: the I/O half of src/bench/silence.ts.
import { normaliseName } from '../config/settings.ts';
import { addCounts, noEvents } from '../plugins/logs/event-class.ts';
import type { PluginProfile } from '../plugins/profile.ts';
import { showGlobal } from '../plugins/server-state.ts';
import { runSteps } from '../plugins/steps.ts';
import type { StartedServer } from '../servers/started-server.ts';
import { armEvents, type TrafficSeen } from './audit-events.ts';
import type { MeasuredRun } from './blocks.ts';
import type { SilenceFacts } from './silence.ts';
import type { MeasuredSubject } from './subject.ts';

const ERROR_LOG_LINES = 40;

/**
 * Applies the subject's on arm and asks the server: the plugin's variables and status as they read while it should
 * log, and the error log's tail; then puts the off arm back. A read that fails leaves its part empty: the cause is
 * then found from what remains (the run's settings stand in for the variables).
 */
export async function askWhySilent(
  server: StartedServer,
  subject: MeasuredSubject,
  profile: PluginProfile,
  context: { settings: Record<string, string>; runs: readonly MeasuredRun[]; traffic: TrafficSeen },
): Promise<SilenceFacts> {
  const quiet = <T>(read: Promise<T>, none: T) => read.catch(() => none);
  await quiet(
    runSteps(server, subject.arms.on, `Turning ${subject.label} on to ask why it logged nothing`),
    undefined,
  );
  const variables = await quiet(showGlobal(server, 'VARIABLES', profile.variablesLike), {});
  const statusLike = profile.silence?.statusLike;
  const status = statusLike ? await quiet(showGlobal(server, 'STATUS', statusLike), {}) : {};
  const errorLog = await quiet(server.errorLogTail(ERROR_LOG_LINES), '');
  await quiet(runSteps(server, subject.arms.off, `Turning ${subject.label} off`), undefined);
  const configured = Object.fromEntries(
    Object.entries(context.settings).map(([k, v]) => [normaliseName(k), v]),
  );
  const read = Object.fromEntries(Object.entries(variables).map(([k, v]) => [k.toLowerCase(), v]));
  const logged = [armEvents(context.runs, 'on'), armEvents(context.runs, 'off')].filter((c) => c !== null);
  return {
    status,
    variables: { ...configured, ...read },
    errorLog: errorLog.split('\n').filter((l) => l.trim() !== ''),
    loggedByUser: logged.reduce(addCounts, noEvents()).byUser,
    traffic: context.traffic,
  };
}
