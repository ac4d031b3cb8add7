import { runSteps } from '../plugins/steps.ts';
import { clockOf, type FaultContext, logPath, setUpLogging } from './context.ts';
import type { Recovery } from './fault-profile.ts';
import { type Landing, landed, readLanding } from './log-markers.ts';
import { startProbe } from './probe.ts';

const BURST_MS = 600;
// MariaDB answers the client before it calls the audit plugins; a moment lets the last record reach the file.
const SETTLE_MS = 300;
let nextBurst = 900_000_000;

/** Markers sent for a moment on a quiet server; the ids the server answered. None when the server does not answer. */
async function burst(ctx: FaultContext): Promise<number[]> {
  const clock = clockOf(ctx);
  const probe = startProbe(ctx.server.connection, ctx.names, nextBurst, clock);
  nextBurst += 10_000;
  await clock.sleepMs(BURST_MS);
  try {
    await probe.stop();
  } catch {
    return [];
  }
  await clock.sleepMs(SETTLE_MS);
  return probe.marks.filter((m) => m.acked).map((m) => m.n);
}

/**
 * Logging is back when a burst's markers reach a file. Some, not all: McAfee's stdio buffer (BUFSIZ) holds the last few
 * on a quiet server.
 */
export const inAnyFile = (landing: Landing, ids: number[]): boolean => ids.some((n) => landed(landing, n));

/** As inAnyFile, in the plugin's current log file (the named one, not a moved copy). */
export const inCurrentFile =
  (ctx: FaultContext) =>
  (landing: Landing, ids: number[]): boolean =>
    ids.some((n) => landing.get(logPath(ctx))?.has(n));

async function restart(ctx: FaultContext): Promise<void> {
  await ctx.server.restart().catch(() => ctx.server.killAndStart());
  await setUpLogging(ctx);
}

/**
 * Climbs the recovery ladder until a burst of markers lands where `ok` wants it: nothing, the plugin's reopen command,
 * its enable steps, a restart. A rung whose steps fail counts as not working.
 */
export async function climbRecovery(
  ctx: FaultContext,
  ok: (landing: Landing, ids: number[]) => boolean,
): Promise<Recovery> {
  const rungs: [Recovery, () => Promise<unknown>][] = [
    ['by itself', async () => {}],
    [
      'after reopen',
      () => runSteps(ctx.server, ctx.support.reopen.steps, `Reopening ${ctx.profile.name}'s log`),
    ],
    [
      'after enable',
      () =>
        runSteps(ctx.server, ctx.support.enable ?? ctx.profile.enable, `Enabling ${ctx.profile.name} again`),
    ],
    ['after restart', () => restart(ctx)],
  ];
  const worked = await firstRungThatWorks(rungs, ctx.progress, async () => {
    const ids = await burst(ctx);
    return ok(await readLanding(ctx.server, ctx.fs.dir, ctx.format, ctx.names.tag), ids);
  });
  return worked ?? 'not recovered';
}

/**
 * A recovery ladder climbed: each rung's action, then `works` asked; the first rung after which it says yes, or null.
 * A rung whose action fails is said in one line and counts as not working (the disk faults' and the receiver's).
 */
export async function firstRungThatWorks<Rung extends string>(
  rungs: [Rung, () => Promise<unknown>][],
  progress: (line: string) => void,
  works: () => Promise<boolean>,
): Promise<Rung | null> {
  for (const [rung, act] of rungs) {
    const acted = await act().then(
      () => true,
      (error: unknown) => {
        progress(`recovery rung '${rung}' failed: ${String(error).split('\n')[0]}`);
        return false;
      },
    );
    if (acted && (await works())) return rung;
  }
  return null;
}
