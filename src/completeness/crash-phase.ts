import { BUILT_IN, presence } from '../plugins/lifecycle/context.ts';
import type { PluginProfile } from '../plugins/profile.ts';
import { expectationsOn } from '../plugins/profile.ts';
import { readVariables } from '../plugins/server-state.ts';
import type { CompletenessPhase } from '../results/schema.ts';
import type { StartedServer } from '../servers/started-server.ts';
import { endlessItems, runMarkers } from './marker-workload.ts';
import { type CompletenessContext, clockOf, phaseRecord, sentKinds } from './phase-context.ts';
import { commits, startLoadedPhase } from './phases.ts';
import { readMarkers } from './read-markers.ts';

/** Installed and logging, read the way the restart lifecycle check reads them. */
export async function pluginState(
  server: StartedServer,
  profile: PluginProfile,
): Promise<{ installed: boolean; loggingOn: boolean }> {
  const status = await presence(server, profile);
  const installed = status === 'ACTIVE' || status === BUILT_IN;
  if (profile.loggingVariable === null) return { installed, loggingOn: installed };
  const variables = await readVariables(server, profile.loggingVariable.replaceAll('_', '\\_'));
  const value = variables[profile.loggingVariable] ?? '';
  return { installed, loggingOn: (profile.loggingOnValues ?? ['ON']).includes(value) };
}

/**
 * SIGKILL while sysbench loads the server and markers stream in, then start it again. Acked markers the log lacks
 * are what a crash loses with this plugin (a finding, not a failure); torn last lines are reported; any other line
 * that does not parse, a duplicate, or a plugin state after the restart other than the profile's, fails.
 */
export async function crashPhase(ctx: CompletenessContext): Promise<CompletenessPhase> {
  const { startedMs, names, files, load, commitsBefore, loadStartedMs } = await startLoadedPhase(ctx);
  const stream = new AbortController();
  const streaming = runMarkers(ctx.server.connection, names, endlessItems(sentKinds(ctx.claims)), {
    connections: ctx.sizes.connections,
    signal: stream.signal,
  });
  const clock = clockOf(ctx);
  await clock.sleepMs(ctx.sizes.crashAfterMs);
  const loadTps = ((await commits(ctx.server)) - commitsBefore) / ((clock.nowMs() - loadStartedMs) / 1000);
  ctx.progress('SIGKILL under load');
  try {
    await ctx.server.killAndStart();
  } finally {
    stream.abort();
    await load.stop();
  }
  const { sent } = await streaming;
  const reading = await readMarkers(ctx.server, ctx.profile, names.tag, null, clock);
  const record = await phaseRecord(ctx, { phase: 'crash', sent, reading, files, loadTps, startedMs });
  const lostAtCrash = record.kinds.reduce((sum, k) => sum + (k.claim === 'logged' ? k.lost : 0), 0);
  const { afterRestart: wanted } = expectationsOn(ctx.profile, ctx.server.info.flavor);
  const expected = { installed: wanted.installed, loggingOn: wanted.loggingOn };
  const observed = await pluginState(ctx.server, ctx.profile);
  const stateOk = expected.installed === observed.installed && expected.loggingOn === observed.loggingOn;
  const problems = [
    record.ok ? null : record.reason,
    stateOk
      ? null
      : `after the restart: expected ${JSON.stringify(expected)}, found ${JSON.stringify(observed)}`,
  ].filter((p): p is string => p !== null);
  const finding = `${lostAtCrash} acked markers lost at the crash, ${record.tornLines} torn lines`;
  return {
    ...record,
    lostAtCrash,
    afterRestart: { expected, observed },
    ok: problems.length === 0,
    reason: problems.length === 0 ? finding : `${problems.join('; ')} (${finding})`,
  };
}
