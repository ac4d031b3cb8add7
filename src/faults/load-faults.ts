import { Buffer } from 'node:buffer';
import { copyFile, rename, truncate } from 'node:fs/promises';
import path from 'node:path';
import type { FaultRecord } from '../results/fault-record.ts';
import {
  clockOf,
  commits,
  counters,
  type FaultContext,
  isUp,
  logPath,
  type Stage,
  startStage,
} from './context.ts';
import type { FaultFacts, FaultName } from './fault-profile.ts';
import { type Landing, landed, landingCounts, readLanding } from './log-markers.ts';
import { longestGapMs, newLines, type ProbeMark, sentBetween } from './probe.ts';
import { climbRecovery, inAnyFile, inCurrentFile } from './recovery.ts';

// Each fault lasts seconds, not minutes: the whole phase must stay within about a minute a plugin on smoke.
const BEFORE_MS = 1_500;
const FAULT_MS = 3_000;
const AFTER_MS = 1_500;
const SERVER_SAID_LINES = 6;

/** Figures of one fault window under load, before the facts are judged. */
interface Window {
  fromMs: number;
  toMs: number;
  tpsBefore: number;
  tpsDuring: number;
}

const tps = (n: number, ms: number) => (ms > 0 ? n / (ms / 1000) : 0);
const lost = (marks: ProbeMark[], landing: Landing) => marks.filter((m) => m.acked && !landed(landing, m.n));

/** Runs `inject` (which resolves when the fault is over) under sysbench and the probe, and measures around it. */
async function underLoad(
  ctx: FaultContext,
  inject: (stage: Stage) => Promise<{ fromMs: number; toMs: number }>,
): Promise<{ stage: Stage; window: Window }> {
  const clock = clockOf(ctx);
  const stage = await startStage(ctx);
  const startMs = clock.nowMs();
  const c0 = await commits(ctx.server);
  await clock.sleepMs(BEFORE_MS);
  const c1 = await commits(ctx.server);
  const beforeMs = clock.nowMs() - startMs;
  try {
    const { fromMs, toMs } = await inject(stage);
    const c2 = await commits(ctx.server);
    await clock.sleepMs(AFTER_MS);
    return {
      stage,
      window: {
        fromMs,
        toMs,
        tpsBefore: tps(c1 - c0, beforeMs),
        tpsDuring: tps(c2 - c1, clock.nowMs() - fromMs),
      },
    };
  } finally {
    await stage.stop();
  }
}

/** One fault as it ran: what `begin` noted, the loaded stage and its window, where the markers landed, the facts. */
interface FaultRun {
  fault: FaultName;
  startedMs: number;
  logBefore: string;
  stage: Stage;
  window: Window;
  landing: Landing;
  facts: Record<string, string | boolean>;
  /** Per window of the fault, how many markers landed in which file (null where the fault moves no file). */
  landedBy: Record<string, Record<string, number>> | null;
}

async function record(ctx: FaultContext, parts: FaultRun): Promise<FaultRecord> {
  const { fault, facts, landedBy, stage, window, landing } = parts;
  const during = sentBetween(stage.probe.marks, window.fromMs, window.toMs).filter((m) => m.acked);
  const gap = longestGapMs(
    stage.probe.marks.map((m) => m.doneMs),
    window.fromMs,
    window.toMs + AFTER_MS,
  );
  // The harness's own sysbench, stopped at the end of the stage, leaves 'Aborted connection' lines: not the fault's;
  // [Note] lines are restarts and rotations, told by the table already.
  const said = newLines(parts.logBefore, await ctx.server.errorLogTail(400).catch(() => '')).filter(
    (line) => !line.includes('Aborted connection') && !line.includes('[Note]'),
  );
  return {
    fault,
    facts,
    mismatches: [],
    longestStallS: gap / 1000,
    tpsBefore: window.tpsBefore,
    tpsDuring: window.tpsDuring,
    markersAcked: during.length,
    markersLost: lost(during, landing).length,
    landed: landedBy,
    answer: null,
    serverSaid: said.slice(0, SERVER_SAID_LINES),
    counters: await counters(ctx).catch(() => ({})),
    durationS: (clockOf(ctx).nowMs() - parts.startedMs) / 1000,
  };
}

const begin = async (ctx: FaultContext) => ({
  startedMs: clockOf(ctx).nowMs(),
  logBefore: await ctx.server.errorLogTail(400),
});

/** The filesystem filled while the load runs, then freed: what the server did, what was lost, how logging came back. */
export async function diskFull(ctx: FaultContext): Promise<FaultRecord> {
  const clock = clockOf(ctx);
  const start = await begin(ctx);
  const { stage, window } = await underLoad(ctx, async () => {
    await ctx.fs.fill();
    const fromMs = clock.nowMs();
    await clock.sleepMs(FAULT_MS);
    const toMs = clock.nowMs();
    await ctx.fs.free();
    return { fromMs, toMs };
  });
  const serverUp = await isUp(ctx.server);
  const landing = await readLanding(ctx.server, ctx.fs.dir, ctx.format, ctx.names.tag);
  const full = sentBetween(stage.probe.marks, window.fromMs, window.toMs);
  const recovery = await climbRecovery(ctx, inAnyFile);
  const facts: FaultFacts['disk-full'] = { serverUp, recordsLost: lost(full, landing).length > 0, recovery };
  return record(ctx, { fault: 'disk-full', ...start, stage, window, landing, facts, landedBy: null });
}

/** fsfreeze for a few seconds under load: how long audited statements wait, and whether logging goes on after. */
export async function frozen(ctx: FaultContext): Promise<FaultRecord> {
  const clock = clockOf(ctx);
  const start = await begin(ctx);
  const { stage, window } = await underLoad(ctx, async () => {
    const fromMs = clock.nowMs();
    try {
      await ctx.fs.freeze();
      await clock.sleepMs(FAULT_MS);
    } finally {
      await ctx.fs.thaw();
    }
    return { fromMs, toMs: clock.nowMs() };
  });
  const serverUp = await isUp(ctx.server);
  const landing = await readLanding(ctx.server, ctx.fs.dir, ctx.format, ctx.names.tag);
  const gapMs = longestGapMs(
    stage.probe.marks.map((m) => m.doneMs),
    window.fromMs,
    window.toMs,
  );
  const recovery = await climbRecovery(ctx, inAnyFile);
  // Half the freeze: a probe that waited that long was held by the log, not by the busy machine.
  const facts: FaultFacts['frozen'] = { serverUp, auditedStatementsWait: gapMs >= FAULT_MS / 2, recovery };
  return record(ctx, { fault: 'frozen', ...start, stage, window, landing, facts, landedBy: null });
}

const absolute = (ctx: FaultContext, file: string) =>
  path.join(ctx.fs.mountPoint, path.relative(ctx.fs.dir, file));
const ids = (marks: ProbeMark[]) => marks.filter((m) => m.acked).map((m) => m.n);

/**
 * `mv` of the current log under load, as logrotate does without copytruncate: do records go on into the moved file,
 * and what makes the plugin write the named file again (the recovery ladder, from its reopen command on).
 */
export async function moved(ctx: FaultContext): Promise<FaultRecord> {
  const clock = clockOf(ctx);
  const start = await begin(ctx);
  const current = logPath(ctx);
  const movedTo = `${current}.1`;
  const { stage, window } = await underLoad(ctx, async () => {
    const fromMs = clock.nowMs();
    await rename(absolute(ctx, current), absolute(ctx, movedTo));
    await clock.sleepMs(FAULT_MS / 2);
    return { fromMs, toMs: clock.nowMs() };
  });
  const landing = await readLanding(ctx.server, ctx.fs.dir, ctx.format, ctx.names.tag);
  const afterMv = sentBetween(stage.probe.marks, window.fromMs, window.toMs);
  const writesMovedFile = ids(afterMv).some((n) => landing.get(movedTo)?.has(n));
  const recovery = await climbRecovery(ctx, inCurrentFile(ctx));
  // Read again: a reopen that rotates (file_logger's do_rotate) renames the moved file once more.
  const final = await readLanding(ctx.server, ctx.fs.dir, ctx.format, ctx.names.tag);
  const landedBy = {
    'before mv': landingCounts(final, ids(sentBetween(stage.probe.marks, 0, window.fromMs))),
    'after mv': landingCounts(final, ids(afterMv)),
  };
  const facts: FaultFacts['moved'] = { writesMovedFile, recovery };
  return record(ctx, { fault: 'moved', ...start, stage, window, landing: final, facts, landedBy });
}

/** logrotate's copytruncate under load: markers written between the copy and the truncate are in neither file. */
export async function copytruncate(ctx: FaultContext): Promise<FaultRecord> {
  const clock = clockOf(ctx);
  const start = await begin(ctx);
  const current = logPath(ctx);
  const { stage, window } = await underLoad(ctx, async () => {
    const fromMs = clock.nowMs();
    await copyFile(absolute(ctx, current), absolute(ctx, `${current}.1`));
    await truncate(absolute(ctx, current), 0);
    const toMs = clock.nowMs();
    await clock.sleepMs(FAULT_MS / 2);
    return { fromMs, toMs };
  });
  const head = (await ctx.server.readFile(current).catch(() => Buffer.alloc(0))).subarray(0, 1);
  const landing = await readLanding(ctx.server, ctx.fs.dir, ctx.format, ctx.names.tag);
  const marks = stage.probe.marks;
  const landedBy = {
    'before copy': landingCounts(landing, ids(sentBetween(marks, 0, window.fromMs))),
    'copy to truncate': landingCounts(landing, ids(sentBetween(marks, window.fromMs, window.toMs))),
    'after truncate': landingCounts(landing, ids(sentBetween(marks, window.toMs, Number.MAX_SAFE_INTEGER))),
  };
  const facts: FaultFacts['copytruncate'] = { holeAfterTruncate: head.length === 1 && head[0] === 0 };
  const result = await record(ctx, {
    fault: 'copytruncate',
    ...start,
    stage,
    window,
    landing,
    facts,
    landedBy,
  });
  // Every marker of the phase counts here: the window is milliseconds, the loss can be anywhere around it.
  const all = marks.filter((m) => m.acked);
  return { ...result, markersAcked: all.length, markersLost: lost(all, landing).length };
}
