import { type Clock, realClock } from '../machine/clock.ts';
import { listLogFiles } from '../plugins/log-reader.ts';
import type { PluginProfile } from '../plugins/profile.ts';
import { readVariables } from '../plugins/server-state.ts';
import type { CompletenessPhase } from '../results/schema.ts';
import type { ConnectionOptions, StartedServer } from '../servers/started-server.ts';
import type { Workload } from '../workload/workload.ts';
import { countMarkers, describeFailures, type SentMarker } from './count.ts';
import { FileTracker } from './file-tracker.ts';
import { type Claims, type EventKind, eventKinds } from './kinds.ts';
import { checkIntegrity } from './log-integrity.ts';
import { prepareMarkers } from './marker-workload.ts';
import { type MarkerNames, newTag } from './markers.ts';
import type { LogReading } from './read-markers.ts';
import type { CompletenessSetup, CompletenessSizes } from './setup.ts';

/** What every phase of one plugin's completeness check shares. */
export interface CompletenessContext {
  server: StartedServer;
  profile: PluginProfile;
  setup: CompletenessSetup;
  claims: Claims;
  sizes: CompletenessSizes;
  /** sysbench's load, tables already prepared. */
  workload: Workload;
  /** The account sysbench's load logs in as: the run's application account, never root unless the run says so. */
  application: ConnectionOptions;
  schema: string;
  progress: (message: string) => void;
  /** The clock the phases' spans, waits and deadlines read: the real one unless a test hands in its own. */
  clock?: Clock;
}

export const clockOf = (ctx: CompletenessContext): Clock => ctx.clock ?? realClock;

/** Kinds the workload sends: every kind not `unchecked`, so excluded kinds are shown to be absent. */
export const sentKinds = (claims: Claims): EventKind[] => eventKinds.filter((k) => claims[k] !== 'unchecked');

/** A fresh tag, its schema objects and user, and a file tracker started on the current log files. */
export async function startPhase(
  ctx: CompletenessContext,
): Promise<{ names: MarkerNames; files: FileTracker }> {
  const names = { tag: newTag(), schema: ctx.schema };
  await prepareMarkers(ctx.server, names);
  return { names, files: new FileTracker(await listLogFiles(ctx.server, ctx.profile)) };
}

export interface PhaseFigures {
  phase: CompletenessPhase['phase'];
  sent: SentMarker[];
  reading: LogReading;
  files: FileTracker;
  loadTps: number | null;
  startedMs: number;
}

/** Counts, file summary, integrity and the plugin's live variables, as one results record (judged as a non-crash phase). */
export async function phaseRecord(ctx: CompletenessContext, f: PhaseFigures): Promise<CompletenessPhase> {
  const kinds = countMarkers(f.sent, f.reading.found, ctx.claims, f.phase === 'crash');
  const summary = f.files.summarise(f.reading.files);
  const integrity = checkIntegrity(f.reading.rejected);
  const problems = [
    describeFailures(kinds),
    summary.deleted.length > 0 && `log files deleted before they were read: ${summary.deleted.join(', ')}`,
    integrity.damaged.length > 0 &&
      `${integrity.damaged.length} log lines do not parse, e.g. ${integrity.damaged[0]?.reason}: ${integrity.damaged[0]?.text}`,
    integrity.torn.length > 0 && f.phase !== 'crash' && `${integrity.torn.length} torn lines without a crash`,
  ].filter((p): p is string => typeof p === 'string' && p !== '');
  return {
    phase: f.phase,
    kinds,
    rotations: summary.rotations,
    filesDeleted: summary.deleted.length,
    logFiles: summary.files,
    tornLines: integrity.torn.length,
    damagedLines: integrity.damaged.length,
    loadTps: f.loadTps,
    lostAtCrash: null,
    afterRestart: null,
    settings: await readVariables(ctx.server, ctx.profile.variablesLike),
    durabilityNote: ctx.setup.durabilityNote,
    durationS: (clockOf(ctx).nowMs() - f.startedMs) / 1000,
    ok: problems.length === 0,
    reason:
      problems.length === 0
        ? 'every claimed marker logged exactly once, excluded kinds absent'
        : problems.join('; '),
  };
}
