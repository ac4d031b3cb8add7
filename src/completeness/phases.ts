import { listLogFiles } from '../plugins/log-reader.ts';
import { runSteps } from '../plugins/steps.ts';
import type { CompletenessPhase } from '../results/schema.ts';
import type { StartedServer } from '../servers/started-server.ts';
import { startSysbenchLoad } from '../workload/sysbench-load.ts';
import type { SentMarker } from './count.ts';
import { markerItems, runMarkers } from './marker-workload.ts';
import { type CompletenessContext, clockOf, phaseRecord, sentKinds, startPhase } from './phase-context.ts';
import { readMarkers } from './read-markers.ts';

const SETTLE_MS = 3_000;
const LIST_EVERY_MS = 250;
// Longer than any phase: sysbench is stopped when the phase ends.
const LOAD_LIMIT_S = 600;

/** Commits so far: sysbench's oltp_read_write commits once per transaction, so the difference over a phase is its TPS. */
export async function commits(server: StartedServer): Promise<number> {
  const { rows } = await server.query("SHOW GLOBAL STATUS LIKE 'Com\\_commit'");
  return Number(rows[0]?.Value ?? 0);
}

/** A phase's markers read back from the plugin's log, waiting SETTLE_MS on the phase's clock for late records. */
const readPhaseMarkers = (ctx: CompletenessContext, tag: string, sent: SentMarker[]) =>
  readMarkers(ctx.server, ctx.profile, tag, { sent, claims: ctx.claims, settleMs: SETTLE_MS }, clockOf(ctx));

/** The markers alone: each kind exactly `perKind` times from several connections, no load, no rotation expected. */
export async function quietPhase(ctx: CompletenessContext): Promise<CompletenessPhase> {
  const startedMs = clockOf(ctx).nowMs();
  const { names, files } = await startPhase(ctx);
  const items = markerItems(sentKinds(ctx.claims), ctx.sizes.perKind);
  const { sent } = await runMarkers(ctx.server.connection, names, items, {
    connections: ctx.sizes.connections,
  });
  const reading = await readPhaseMarkers(ctx, names.tag, sent);
  return phaseRecord(ctx, { phase: 'quiet', sent, reading, files, loadTps: null, startedMs });
}

/** Starts sysbench on the prepared tables and resolves once its threads run; `stop` ends it. */
export const startLoad = (ctx: CompletenessContext): Promise<{ stop: () => Promise<void> }> =>
  startSysbenchLoad(ctx.application, ctx.workload, {
    durationS: LOAD_LIMIT_S,
    what: 'the completeness check',
  });

/** The opening of a phase under load: its markers' names and file tracker, sysbench started, commits counted. */
export async function startLoadedPhase(ctx: CompletenessContext) {
  const clock = clockOf(ctx);
  const startedMs = clock.nowMs();
  const { names, files } = await startPhase(ctx);
  const load = await startLoad(ctx);
  const commitsBefore = await commits(ctx.server);
  return { startedMs, names, files, load, commitsBefore, loadStartedMs: clock.nowMs() };
}

/**
 * Rounds of `perKind` markers per kind while sysbench loads the server, for at least `minLoadS` and until the log has
 * rotated `minRotations` times (by the plugin's size rotation, or the harness switching files), or `maxLoadS` is spent.
 * A log the plan does not rotate (`none`) stops at `minLoadS`: waiting for rotations would only spend `maxLoadS`.
 */
export async function loadPhase(ctx: CompletenessContext): Promise<CompletenessPhase> {
  const clock = clockOf(ctx);
  const { startedMs, names, files, load, commitsBefore, loadStartedMs } = await startLoadedPhase(ctx);
  let running = true;
  const lister = setInterval(() => {
    listLogFiles(ctx.server, ctx.profile).then(
      (list) => files.observe(list),
      () => {},
    );
  }, LIST_EVERY_MS);
  const switching = switchFiles(ctx, () => running);
  const sent: SentMarker[] = [];
  let reported = 0;
  try {
    for (let first = 1; ; first += ctx.sizes.perKind) {
      const items = markerItems(sentKinds(ctx.claims), ctx.sizes.perKind, first);
      const run = await runMarkers(ctx.server.connection, names, items, {
        connections: ctx.sizes.connections,
      });
      sent.push(...run.sent);
      const { rotations } = files.summarise(await listLogFiles(ctx.server, ctx.profile));
      const elapsedS = (clock.nowMs() - loadStartedMs) / 1000;
      if (rotations > reported) {
        ctx.progress(`load: ${sent.length} markers sent, ${rotations} rotations in ${elapsedS.toFixed(0)} s`);
        reported = rotations;
      }
      const rotated = ctx.setup.rotation.kind === 'none' || rotations >= ctx.sizes.minRotations;
      const done = rotated && elapsedS >= ctx.sizes.minLoadS;
      if (run.connectionLost || done || elapsedS >= ctx.sizes.maxLoadS) break;
    }
  } finally {
    running = false;
    clearInterval(lister);
    await switching;
  }
  const loadTps = (await commits(ctx.server)) - commitsBefore;
  const loadS = (clock.nowMs() - loadStartedMs) / 1000;
  await load.stop();
  const reading = await readPhaseMarkers(ctx, names.tag, sent);
  return phaseRecord(ctx, { phase: 'load', sent, reading, files, loadTps: loadTps / loadS, startedMs });
}

/** For a log with no rotation of its own: runs the setup's switch steps every `everyMs` while `active()`. */
async function switchFiles(ctx: CompletenessContext, active: () => boolean): Promise<void> {
  const plan = ctx.setup.rotation;
  if (plan.kind !== 'switch') return;
  for (let k = 1; ; k++) {
    await clockOf(ctx).sleepMs(plan.everyMs);
    if (!active()) return;
    await runSteps(ctx.server, plan.steps(k), `Switching ${ctx.profile.name} to a new file`);
  }
}
