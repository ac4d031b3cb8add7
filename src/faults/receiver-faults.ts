import { prepareMarkers } from '../completeness/marker-workload.ts';
import { newTag } from '../completeness/markers.ts';
import { realClock } from '../machine/clock.ts';
import type { PluginProfile } from '../plugins/profile.ts';
import type { FaultRecord, ReceiverFaultName } from '../results/fault-record.ts';
import type { StartedServer } from '../servers/started-server.ts';
import { startSysbenchLoad } from '../workload/sysbench-load.ts';
import { newLines, type Probe, startProbe } from './probe.ts';
import {
  accountSequence,
  longestStallMs,
  markerSequence,
  meanTps,
  recoveredAtMs,
  secondsAround,
  type TpsSample,
  tpsOfLine,
} from './receiver-accounting.ts';
import { enableLogging, type ReceiverContext } from './receiver-context.ts';
import { type ReceiverRecovery, recoverReceiver } from './receiver-recovery.ts';

// Seconds, so that sysbench's per-second lines show the fault: three before, the fault, four after.
const BEFORE_MS = 3_000;
const PAUSE_MS = 5_000;
const DOWN_MS = 3_000;
const AFTER_MS = 4_000;
// rsyslogd writes its file a moment after the records arrive.
const SETTLE_MS = 1_000;
const SERVER_SAID_LINES = 6;

/** Why a run gets no receiver faults here, or null. Said before its server is prepared. */
export function receiverFaultsUnsupported(profile: PluginProfile): string | null {
  if (profile.expected.syslog === undefined) {
    return 'the receiver faults need a run sending to syslog (server_audit_output_type=syslog); this one writes a file';
  }
  if (profile.log.file === null || profile.log.format === null) return "its receiver's file has no reader";
  return null;
}

/** The run's settings and logging on, the markers' schema made: the plugin installed and the tables loaded already. */
export async function prepareReceiverFaults(
  server: StartedServer,
  profile: PluginProfile,
  opts: Pick<ReceiverContext, 'workload' | 'application' | 'progress'>,
): Promise<ReceiverContext> {
  const receiver = server.syslogReceiver?.() ?? null;
  const { file, format } = profile.log;
  if (!receiver) {
    throw new Error(
      `The receiver faults need the run's own rsyslogd (local target, root, unshare, rsyslogd); ${server.info.target} server has none`,
    );
  }
  if (file === null || format === null)
    throw new Error(`${profile.name}: ${receiverFaultsUnsupported(profile)}`);
  const names = { tag: newTag(), schema: 'auditbench_faults' };
  await prepareMarkers(server, names);
  const ctx: ReceiverContext = { server, profile, receiver, file, format, names, clock: realClock, ...opts };
  await enableLogging(ctx);
  return ctx;
}

/** The fault itself: resolves when it is over, with when it began and ended. */
type Inject = (ctx: ReceiverContext) => Promise<{ fromMs: number; toMs: number }>;

const inject: Record<ReceiverFaultName, Inject> = {
  async 'receiver-paused'({ receiver, clock }) {
    const fromMs = clock.nowMs();
    receiver.pause();
    try {
      await clock.sleepMs(PAUSE_MS);
    } finally {
      receiver.resume();
    }
    return { fromMs, toMs: clock.nowMs() };
  },
  async 'receiver-killed'({ receiver, clock }) {
    const fromMs = clock.nowMs();
    await receiver.kill();
    await clock.sleepMs(DOWN_MS);
    await receiver.start();
    return { fromMs, toMs: clock.nowMs() };
  },
  // Nothing puts the socket back during the stage: what a removed socket does on its own is the row.
  async 'socket-removed'({ receiver, clock }) {
    const fromMs = clock.nowMs();
    await receiver.removeSocket();
    await clock.sleepMs(DOWN_MS);
    return { fromMs, toMs: clock.nowMs() };
  },
};

let nextMarker = 500_000_000;

/** sysbench (its per-second lines kept) and the probe, from before the fault to after it. */
async function underLoad(ctx: ReceiverContext, fault: ReceiverFaultName) {
  const { clock } = ctx;
  const samples: TpsSample[] = [];
  const load = await startSysbenchLoad(ctx.application, ctx.workload, {
    durationS: 600,
    what: `the receiver fault ${fault}`,
    onReportLine: (_atS, line) => {
      const tps = tpsOfLine(line);
      if (tps !== null) samples.push({ atMs: clock.nowMs(), tps });
    },
  });
  let probe: Probe | undefined;
  try {
    probe = startProbe(ctx.server.connection, ctx.names, nextMarker, clock);
    nextMarker += 1_000_000;
    await clock.sleepMs(BEFORE_MS);
    const window = await inject[fault](ctx);
    await clock.sleepMs(AFTER_MS);
    return { samples, marks: probe.marks, window };
  } finally {
    await probe?.stop().catch(() => undefined);
    await load.stop();
  }
}

/** One receiver fault under sysbench and the probe: throughput each second, the longest stall, what the receiver kept. */
export async function receiverFault(ctx: ReceiverContext, fault: ReceiverFaultName): Promise<FaultRecord> {
  const { server, clock } = ctx;
  ctx.progress(fault);
  const startedMs = clock.nowMs();
  const logBefore = await server.errorLogTail(400);
  const { samples, marks, window } = await underLoad(ctx, fault);
  const serverUp = await server.query('SELECT 1').then(
    () => true,
    () => false,
  );
  await clock.sleepMs(SETTLE_MS);
  const text = (await server.readFile(ctx.file)).toString('utf8');
  const seen = markerSequence(text, ctx.format, ctx.names.tag);
  const account = accountSequence(
    marks.filter((m) => m.acked).map((m) => m.n),
    seen,
  );
  const recoveredMs = recoveredAtMs(marks, new Set(seen), window.toMs);
  const recovery: ReceiverRecovery = await recoverReceiver(ctx, recoveredMs !== null);
  const perSecond = secondsAround(samples, window.fromMs, window.toMs);
  const said = newLines(logBefore, await server.errorLogTail(400).catch(() => '')).filter(
    (line) => !line.includes('Aborted connection') && !line.includes('[Note]'),
  );
  return {
    fault,
    facts: { serverUp, recovery },
    mismatches: [],
    longestStallS: longestStallMs(marks, window.fromMs, window.toMs + AFTER_MS) / 1000,
    tpsBefore: meanTps(perSecond, 'before'),
    tpsDuring: meanTps(perSecond, 'during'),
    markersAcked: account.sent,
    markersLost: account.lost,
    landed: null,
    answer: null,
    serverSaid: said.slice(0, SERVER_SAID_LINES),
    counters: await statusCounters(ctx),
    durationS: (clock.nowMs() - startedMs) / 1000,
    receiver: {
      faultS: (window.toMs - window.fromMs) / 1000,
      tpsAfter: meanTps(perSecond, 'after'),
      perSecond,
      duplicated: account.duplicated,
      outOfOrder: account.outOfOrder,
      recoverS: recoveredMs === null ? null : Math.max(0, recoveredMs - window.toMs) / 1000,
    },
  };
}

async function statusCounters({ server, profile }: ReceiverContext): Promise<Record<string, string>> {
  const like = profile.faults?.statusLike;
  if (!like) return {};
  const rows = await server
    .query(`SHOW GLOBAL STATUS LIKE '${like}'`)
    .then((r) => r.rows)
    .catch(() => []);
  return Object.fromEntries(rows.map((r) => [String(r.Variable_name), String(r.Value)]));
}
