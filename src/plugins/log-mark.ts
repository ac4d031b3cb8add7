import { createHash } from 'node:crypto';
import type { StartedServer } from '../servers/started-server.ts';
import type { AuditEvent } from './audit-event.ts';
import type { LogFile } from './log-files.ts';
import { listLogFiles } from './log-reader.ts';
import { INCOMPLETE_LINE, INCOMPLETE_RECORD } from './logs/framing.ts';
import { logParsers } from './logs/index.ts';
import type { PluginProfile } from './profile.ts';

/**
 * A place in a plugin's log that survives rotation: the file it was taken in, known by its identity (device and
 * inode, which a rename keeps), and a byte offset in it. A count of records over every file (the mark before
 * 2026-12-07) shifts when a rotation deletes the oldest copy; an offset in a file known by identity does not.
 */
export interface LogMark {
  /** The file then: its name, and its identity. Null when the plugin had written no file yet. */
  file: { name: string; fileId: string } | null;
  /** Bytes of that file before the mark, a whole number of lines. */
  offsetBytes: number;
  /** Those bytes' SHA-256: a file with the same identity but other bytes is another file on a reused inode. */
  prefixSha256: string;
  /** Events and lines parsed from those bytes: the span starts after them, whatever the format. */
  eventsBefore: number;
  linesBefore: number;
}

/** A line of the log that is no record a reader can trust: where it is and why. */
export interface UnreadableLine {
  file: string;
  /** 1-based line in that file; null for a record refused after parsing (an account it cannot be attributed to). */
  line: number | null;
  text: string;
  reason: string;
}

/** The log from a mark on: every event of the files still there (for whose connection is whose), and the span. */
export interface LogSpan {
  events: AuditEvent[];
  /** Index in `events` of the first event after the mark. */
  from: number;
  /** The file each event came from, by index. */
  fileOf: string[];
  /** Lines after the mark that did not parse. */
  unreadable: UnreadableLine[];
}

const sha256 = (bytes: Uint8Array): string => createHash('sha256').update(bytes).digest('hex');
const parserOf = (profile: PluginProfile) => {
  if (profile.log.format === null) throw new Error(`${profile.name} writes no log file auditbench can read`);
  return logParsers[profile.log.format];
};

/** The mark at the end of the plugin's current file (at its last complete line). */
export async function takeMark(server: StartedServer, profile: PluginProfile): Promise<LogMark> {
  const parse = parserOf(profile);
  const current = (await listLogFiles(server, profile)).find((f) => f.generation === 0);
  if (!current)
    return {
      file: null,
      offsetBytes: 0,
      prefixSha256: sha256(new Uint8Array()),
      eventsBefore: 0,
      linesBefore: 0,
    };
  const bytes = await server.readFile(current.name);
  const offsetBytes = bytes.lastIndexOf(0x0a) + 1;
  const prefix = bytes.subarray(0, offsetBytes);
  return {
    file: { name: current.name, fileId: current.fileId },
    offsetBytes,
    prefixSha256: sha256(prefix),
    eventsBefore: parse(prefix.toString('utf8')).events.length,
    linesBefore: countLines(prefix),
  };
}

const countLines = (bytes: Uint8Array): number => bytes.reduce((n, b) => (b === 0x0a ? n + 1 : n), 0);

const TRIES = 3;

/**
 * Every event of the log's files, and where the mark's span starts among them. The mark's file is found by its
 * identity wherever rotation moved it; a mark whose file is gone (rotated out of the kept copies, or removed) throws,
 * naming the file: the records between the mark and the oldest file left are lost, and a span without them is no
 * evidence. A rotation between listing and reading is retried.
 */
export async function readSpan(
  server: StartedServer,
  profile: PluginProfile,
  mark: LogMark,
): Promise<LogSpan> {
  let lastError: Error | undefined;
  for (let attempt = 0; attempt < TRIES; attempt++) {
    const files = await listLogFiles(server, profile);
    const span = await spanOf(server, profile, mark, files);
    if (!(span instanceof Error)) return span;
    lastError = span;
  }
  throw lastError;
}

async function spanOf(
  server: StartedServer,
  profile: PluginProfile,
  mark: LogMark,
  files: LogFile[],
): Promise<LogSpan | Error> {
  const parse = parserOf(profile);
  const at = mark.file === null ? 0 : files.findIndex((f) => f.fileId === mark.file?.fileId);
  if (at === -1) return lostMark(mark, files);
  const span: LogSpan = { events: [], from: 0, fileOf: [], unreadable: [] };
  for (const [i, file] of files.entries()) {
    const bytes = await server.readFile(file.name);
    const marked = mark.file !== null && i === at;
    if (
      marked &&
      !(bytes.length >= mark.offsetBytes && sha256(bytes.subarray(0, mark.offsetBytes)) === mark.prefixSha256)
    )
      return lostMark(mark, files);
    const { events, rejected } = parse(bytes.toString('utf8'));
    if (i === at) span.from = span.events.length + (marked ? mark.eventsBefore : 0);
    for (const event of events) {
      span.events.push(event);
      span.fileOf.push(file.name);
    }
    if (i < at) continue;
    const after = marked ? mark.linesBefore : 0;
    for (const r of rejected) {
      // The current file's unfinished last line is a write in progress, not damage.
      const busy = i === files.length - 1 && (r.reason === INCOMPLETE_LINE || r.reason === INCOMPLETE_RECORD);
      if (r.line > after && !busy) span.unreadable.push({ file: file.name, ...r });
    }
  }
  return span;
}

function lostMark(mark: LogMark, files: LogFile[]): Error {
  const name = mark.file?.name ?? '(none)';
  const now = files.map((f) => f.name).join(', ') || 'no file';
  return new Error(
    `the log file the mark was taken in is gone: ${name} (file id ${mark.file?.fileId}, ${mark.offsetBytes} bytes at the mark) is no longer among the plugin's files (${now}): rotation deleted it, so records written between the mark and the oldest file left are lost. Keep more rotated copies (server_audit_file_rotations, audit_log_rotations) or rotate less often between mark() and since()`,
  );
}
