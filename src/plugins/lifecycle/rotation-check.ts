import { realClock } from '../../machine/clock.ts';
import type { LogFile } from '../log-files.ts';
import { LogGrowth, totalBytes } from '../log-files.ts';
import { listLogFiles } from '../log-reader.ts';
import { runSteps } from '../steps.ts';
import {
  check,
  type LifecycleContext,
  type LifecycleStep,
  loggedStatement,
  notApplicable,
  toJson,
  unreadableReason,
} from './context.ts';

const rotateSizeBytes = 16_384;
const rotations = 3;
// Records stay under 1023 bytes: MariaDB's file logger (sql_errlog) cuts longer ones there, newline included
// (logger_vprintf()'s 1 KB buffer in mysys/file_logger.c; live on 10.11), which would test truncation, not rotation.
const payload = 'x'.repeat(700);
// A file may pass the size limit by one record before it rotates.
const recordSlackBytes = 2_048;
// Statements between two listings of the log files.
const batch = 8;
/** Where writing stops whatever the plugin did: enough log for rotations + 2 rotations, a minute, a statement cap. */
const limits = { bytes: (rotations + 3) * rotateSizeBytes, ms: 60_000, statements: 20_000 };

/**
 * Follows a log through rotations from its listings: each new identity of the current file is one rotation, and the
 * bytes written are, over every file seen, its largest size less its size before the check, so a rotated or dropped
 * file still counts and what earlier runs left in the directory does not.
 */
export interface RotationProgress {
  rotationsSeen: number;
  loggedBytes: number;
}

export function trackRotation(before: LogFile[] = []): { see(files: LogFile[]): RotationProgress } {
  const growth = new LogGrowth(before);
  const currents = new Set<string>(before.filter((f) => f.generation === 0).map((f) => f.fileId));
  return {
    see(files) {
      growth.observe(files);
      const current = files.find((f) => f.generation === 0);
      if (current) currents.add(current.fileId);
      return { rotationsSeen: Math.max(0, currents.size - 1), loggedBytes: growth.bytesWritten };
    },
  };
}

/**
 * Files the plugin did not touch while the check wrote: same identity, name and size as before it was enabled. An
 * earlier configuration with more rotations leaves `.4`, `.5`... that a plugin keeping 3 never renames; they are
 * reported, not held against this configuration.
 */
export function untouchedSince(before: LogFile[], after: LogFile[]): LogFile[] {
  const key = (f: LogFile) => `${f.fileId}|${f.name}|${f.sizeBytes}`;
  const earlier = new Set(before.map(key));
  return after.filter((f) => f.generation > 0 && earlier.has(key(f)));
}

/**
 * Of the files that look untouched (untouchedSince), those that hold none of this check's records. ext4 gives a freed
 * inode to the next new file, so after whole cycles of rotation a file of this check's can carry an earlier file's
 * inode, name and size (the settings sweep, its configurations sharing one datadir, saw rotatedFiles [] so). Where
 * records cut the marker off, identity is all there is to go by.
 */
async function leftFromEarlier(
  ctx: LifecycleContext,
  before: LogFile[],
  listed: LogFile[],
): Promise<LogFile[]> {
  const candidates = untouchedSince(before, listed);
  if (unreadableReason(ctx, `SELECT '${ctx.marker}`, ctx.marker) !== null) return candidates;
  const left: LogFile[] = [];
  for (const file of candidates) {
    if (!(await ctx.server.readFile(file.name)).includes(ctx.marker)) left.push(file);
  }
  return left;
}

/** Writing stops once the configured rotations and one more happened (the oldest must go), or at a limit. */
export const rotationDone = (p: RotationProgress, sizeBytes: number, statements: number, elapsedMs: number) =>
  p.rotationsSeen > rotations ||
  p.loggedBytes >= (limits.bytes / rotateSizeBytes) * sizeBytes ||
  statements >= limits.statements ||
  elapsedMs >= limits.ms;

/**
 * Rotation by size: the check writes logged statements until the plugin has rotated `rotations` + 1 times, however
 * long each record is (server_audit_query_log_limit may cut it), bounded in log bytes, time and statements.
 */
export const rotation: LifecycleStep = {
  id: 'rotation',
  title: `rotates by size into .1..${rotations} and stays bounded`,
  async run(ctx) {
    if (ctx.profile.log.file === null) return notApplicable('rotation', 'writes no file');
    const unreadable = ctx.expected.logUnreadable;
    if (unreadable !== undefined) return notApplicable('rotation', unreadable);
    // The check fills the log with its own statements and reads what the files kept of them.
    const incomplete = ctx.expected.recordsIncomplete;
    if (incomplete !== undefined) return notApplicable('rotation', incomplete);
    if (!ctx.audited.checks) {
      return notApplicable('rotation', `the run's user filter does not audit the checks' account`, {
        account: ctx.checks.user,
      });
    }
    if (!ctx.expected.logsSuccessfulQueries && ctx.expected.failedQueryCodes.length === 0) {
      return notApplicable(
        'rotation',
        'this configuration logs no statement, so the check cannot fill the log',
      );
    }
    const settings = ctx.profile.log.rotation;
    const sizeBytes = Math.max(settings?.minSizeBytes ?? 0, rotateSizeBytes);
    if (settings)
      await runSteps(ctx.server, settings.configure(sizeBytes, rotations), 'Configuring rotation');
    await runSteps(ctx.server, ctx.profile.enable, `Enabling ${ctx.profile.name}`);
    const before = await listLogFiles(ctx.server, ctx.profile);
    const tracker = trackRotation(before);
    const clock = ctx.clock ?? realClock;
    const started = clock.nowMs();
    let statements = 0;
    let progress = tracker.see(before);
    let example = '';
    while (!rotationDone(progress, sizeBytes, statements, clock.nowMs() - started)) {
      for (let i = 0; i < batch; i++) example = await loggedStatement(ctx, `rot-${statements++}-`, payload);
      progress = tracker.see(await listLogFiles(ctx.server, ctx.profile));
    }
    await runSteps(ctx.server, ctx.profile.disable, `Disabling ${ctx.profile.name}`);

    const listed = await listLogFiles(ctx.server, ctx.profile);
    const leftFromBefore = await leftFromEarlier(ctx, before, listed);
    const files = listed.filter((f) => !leftFromBefore.includes(f));
    if (settings?.restore) await runSteps(ctx.server, settings.restore, 'Restoring rotation');
    const rotated = files
      .map((f) => f.generation)
      .filter((g) => g > 0)
      .sort((a, b) => a - b);
    const boundBytes = (rotations + 1) * (sizeBytes + recordSlackBytes);
    const totalOnDisk = totalBytes(files);
    const expected = ctx.expected.rotates
      ? { rotatedFiles: Array.from({ length: rotations }, (_, i) => i + 1), withinBound: true }
      : { rotatedFiles: [], withinBound: false };
    return check(
      'rotation',
      expected,
      { rotatedFiles: rotated, withinBound: totalOnDisk <= boundBytes },
      toJson({
        account: ctx.checks.user,
        // loggedStatement's SELECT of the marker and the padding (FROM a missing table where only failures are logged).
        statement: `SELECT '${example}<${payload.length} × x>' AS auditbench_marker`,
        rotateSizeBytes: sizeBytes,
        rotations,
        rotationsSeen: progress.rotationsSeen,
        statementsSent: statements,
        loggedBytes: progress.loggedBytes,
        writtenForMs: clock.nowMs() - started,
        totalBytesOnDisk: totalOnDisk,
        boundBytes,
        files: files.map((f) => ({ name: f.name, sizeBytes: f.sizeBytes })),
        ...(leftFromBefore.length > 0 && {
          leftFromBefore: leftFromBefore.map((f) => ({ name: f.name, sizeBytes: f.sizeBytes })),
        }),
      }),
    );
  },
};
