import type { LogFile } from '../plugins/log-files.ts';
import { LogGrowth } from '../plugins/log-files.ts';
import { listLogFiles } from '../plugins/log-reader.ts';
import { countEvents, type EventCounts, noEvents } from '../plugins/logs/event-class.ts';
import { logParsers } from '../plugins/logs/index.ts';
import type { PluginProfile } from '../plugins/profile.ts';
import type { StartedServer } from '../servers/started-server.ts';
import type { Arm } from '../stats/tps-pair.ts';

// Rotation renames files; listing every second keeps each file in view long before it can be deleted.
const pollMs = 1_000;

/** What a run's log watch found: bytes written over the whole run, and the events written in each arm. */
export interface LogWatchResult {
  bytes: number;
  /** Events in plugin-on time, by class and by user; null when the plugin writes no parsed log (A/A, counters). */
  onEvents: EventCounts | null;
  /** Events in the off arm's time: a gate's base arm, where the plugin logs too. */
  offEvents: EventCounts | null;
}

export interface LogWatch {
  /** Records where each log file ends as `arm` begins: bytes written from an 'on' mark to the next are on-time's. */
  mark(arm: Arm): Promise<void>;
  stop(): Promise<LogWatchResult>;
}

interface Mark {
  arm: Arm;
  sizes: Map<string, number>;
}

const sizesOf = (files: LogFile[]) => new Map(files.map((f) => [f.fileId, f.sizeBytes]));

/**
 * Follows a plugin's log while a run is in progress: the bytes it grows by across rotations, and where each file
 * ended at every arm switch. The switch is marked after the server acknowledged it, so the byte ranges between an
 * 'on' mark and the next one hold exactly what the plugin wrote in plugin-on time, whatever the format's timestamps
 * (server_audit's are whole seconds in the server's local time, too coarse for 5 s segments).
 */
export async function watchLogGrowth(
  server: StartedServer,
  profile: PluginProfile | null,
  firstArm: Arm = 'on',
): Promise<LogWatch> {
  if (profile === null)
    return { mark: async () => {}, stop: async () => ({ bytes: 0, onEvents: null, offEvents: null }) };
  const initial = await listLogFiles(server, profile);
  const growth = new LogGrowth(initial);
  const marks: Mark[] = [{ arm: firstArm, sizes: sizesOf(initial) }];
  let pending: Promise<void> = Promise.resolve();
  const timer = setInterval(() => {
    pending = pending.then(async () => growth.observe(await listLogFiles(server, profile))).catch(() => {});
  }, pollMs);
  return {
    async mark(arm: Arm): Promise<void> {
      const files = await listLogFiles(server, profile);
      growth.observe(files);
      marks.push({ arm, sizes: sizesOf(files) });
    },
    async stop(): Promise<LogWatchResult> {
      clearInterval(timer);
      await pending;
      const files = await listLogFiles(server, profile);
      growth.observe(files);
      marks.push({ arm: 'off', sizes: sizesOf(files) });
      const events = await countArmEvents(server, profile, files, marks);
      return { bytes: growth.bytesWritten, onEvents: events?.on ?? null, offEvents: events?.off ?? null };
    },
  };
}

/** One file's bytes [fromByte, toByte) written in plugin-on time. */
interface OnRange {
  fileId: string;
  fromByte: number;
  toByte: number;
}

/** The byte ranges from each mark of `arm` to the next mark, per file (a file new since the mark starts at 0). */
export function onRanges(marks: Mark[], arm: Arm = 'on'): OnRange[] {
  const ranges: OnRange[] = [];
  for (const [i, mark] of marks.entries()) {
    const next = marks[i + 1];
    if (mark.arm !== arm || !next) continue;
    for (const [fileId, toByte] of next.sizes) {
      const fromByte = mark.sizes.get(fileId) ?? 0;
      if (toByte > fromByte) ranges.push({ fileId, fromByte, toByte });
    }
  }
  return ranges;
}

/**
 * The record boundaries around a byte range: a record cut at the start belongs to the range before, one cut at the
 * end to this one, so each line is counted once. A multi-line record (Percona's XML) cut by a switch is dropped.
 */
export function lineAligned(buf: Buffer, fromByte: number, toByte: number): Buffer {
  let start = Math.min(fromByte, buf.length);
  if (start > 0 && buf[start - 1] !== 0x0a) {
    const nl = buf.indexOf(0x0a, start);
    start = nl === -1 ? buf.length : nl + 1;
  }
  let end = Math.min(toByte, buf.length);
  if (end > 0 && buf[end - 1] !== 0x0a) {
    const nl = buf.indexOf(0x0a, end);
    end = nl === -1 ? buf.length : nl + 1;
  }
  return buf.subarray(start, Math.max(start, end));
}

async function countArmEvents(
  server: StartedServer,
  profile: PluginProfile,
  files: LogFile[],
  marks: Mark[],
): Promise<Record<Arm, EventCounts> | null> {
  const format = profile.log.format;
  if (format === null) return null;
  const parse = logParsers[format];
  const counts: Record<Arm, EventCounts> = { on: noEvents(), off: noEvents() };
  const ranges = (['on', 'off'] as const).flatMap((arm) => onRanges(marks, arm).map((r) => ({ ...r, arm })));
  for (const file of files) {
    const own = ranges.filter((r) => r.fileId === file.fileId);
    // A file rotated away before the run ended is not read: its events go uncounted.
    if (own.length === 0) continue;
    const buf = await server.readFile(file.name);
    for (const r of own)
      countEvents(
        format,
        parse(lineAligned(buf, r.fromByte, r.toByte).toString('utf8')).events,
        counts[r.arm],
      );
  }
  return counts;
}
