import { access } from 'node:fs/promises';
import { startProbe } from './probe.ts';
import { markerSequence } from './receiver-accounting.ts';
import { enableLogging, type ReceiverContext } from './receiver-context.ts';
import { firstRungThatWorks } from './recovery.ts';

/** What brought records back after a receiver fault: nothing, a restart of the receiver, of the server, or nothing did. */
export const receiverRecoveries = [
  'by itself',
  'after receiver restart',
  'after server restart',
  'not recovered',
] as const;
export type ReceiverRecovery = (typeof receiverRecoveries)[number];

const BURST_MS = 600;
const SETTLE_MS = 1_000;
let nextBurst = 950_000_000;

/** Markers sent for a moment on a quiet server: whether any answered one reached the receiver's file. */
async function burstLands(ctx: ReceiverContext): Promise<boolean> {
  const probe = startProbe(ctx.server.connection, ctx.names, nextBurst, ctx.clock);
  nextBurst += 10_000;
  await ctx.clock.sleepMs(BURST_MS);
  const stopped = await probe.stop().then(
    () => true,
    () => false,
  );
  if (!stopped) return false;
  await ctx.clock.sleepMs(SETTLE_MS);
  const text = (await ctx.server.readFile(ctx.file).catch(() => Buffer.alloc(0))).toString('utf8');
  const seen = new Set(markerSequence(text, ctx.format, ctx.names.tag));
  return probe.marks.some((m) => m.acked && seen.has(m.n));
}

async function restartReceiver(ctx: ReceiverContext): Promise<void> {
  await ctx.receiver.kill();
  await ctx.receiver.start();
}

/**
 * The recovery ladder of a receiver fault, from `recoveredInStage` (records flowed again before the stage ended): a
 * burst of markers after each rung, the first rung after which they land. Leaves the receiver's socket in place for
 * the next fault: a removed socket that records still passed (the server's connected socket) is made again by a
 * receiver restart, after the answer.
 */
export async function recoverReceiver(
  ctx: ReceiverContext,
  recoveredInStage: boolean,
): Promise<ReceiverRecovery> {
  const rungs: [ReceiverRecovery, () => Promise<void>][] = [
    ['by itself', async () => {}],
    ['after receiver restart', () => restartReceiver(ctx)],
    [
      'after server restart',
      async () => {
        await ctx.server.restart();
        await enableLogging(ctx);
      },
    ],
  ];
  const answer: ReceiverRecovery = recoveredInStage
    ? 'by itself'
    : ((await firstRungThatWorks(rungs, ctx.progress, () => burstLands(ctx))) ?? 'not recovered');
  const socketThere = await access(ctx.receiver.socket).then(
    () => true,
    () => false,
  );
  if (!socketThere) {
    ctx.progress(`the receiver's socket is gone (${answer}); restarting the receiver to make it again`);
    await restartReceiver(ctx);
  }
  return answer;
}
