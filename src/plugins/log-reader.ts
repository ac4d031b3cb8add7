import path from 'node:path';
import { type Clock, realClock } from '../machine/clock.ts';
import type { StartedServer } from '../servers/started-server.ts';
import type { AuditEvent, LogParseResult } from './audit-event.ts';
import { type LogFile, selectLogFiles } from './log-files.ts';
import { logParsers } from './logs/index.ts';
import type { PluginProfile } from './profile.ts';

/**
 * The plugin's log files on the server, oldest first (rotated copies before the current file). None for a plugin that
 * writes no file, so log growth is zero without a branch in the caller.
 */
export async function listLogFiles(server: StartedServer, profile: PluginProfile): Promise<LogFile[]> {
  const { file } = profile.log;
  if (file === null) return [];
  return selectLogFiles(await server.listFiles(path.dirname(file)), file);
}

/** Raw text of every log file, oldest first. */
export async function readLogText(server: StartedServer, profile: PluginProfile): Promise<string> {
  const texts: string[] = [];
  for (const file of await listLogFiles(server, profile))
    texts.push((await server.readFile(file.name)).toString('utf8'));
  return texts.join('');
}

export interface LogEvents extends LogParseResult {
  files: LogFile[];
}

/** Reads and parses every log file; lines that do not parse are kept in `rejected`, tagged with their file. */
export async function readLogEvents(server: StartedServer, profile: PluginProfile): Promise<LogEvents> {
  const events: AuditEvent[] = [];
  const rejected: LogParseResult['rejected'] = [];
  if (profile.log.format === null) return { events, rejected, files: [] };
  const parse = logParsers[profile.log.format];
  const files = await listLogFiles(server, profile);
  for (const file of files) {
    const result = parse((await server.readFile(file.name)).toString('utf8'));
    // A loop, not push(...spread): a log of tens of MB holds more events than a call can take arguments.
    for (const event of result.events) events.push(event);
    for (const r of result.rejected) rejected.push({ ...r, reason: `${file.name}: ${r.reason}` });
  }
  return { events, rejected, files };
}

/**
 * Reads the log until an event matches or the wait is over: buffered plugins (Percona's and MySQL's
 * ASYNCHRONOUS strategy) write a moment after the statement returns.
 */
export async function waitForEvents(
  server: StartedServer,
  profile: PluginProfile,
  found: (events: AuditEvent[]) => boolean,
  waitMs = 2_000,
  clock: Clock = realClock,
): Promise<LogEvents> {
  const deadline = clock.nowMs() + waitMs;
  for (;;) {
    const log = await readLogEvents(server, profile);
    if (found(log.events) || clock.nowMs() >= deadline) return log;
    await clock.sleepMs(100);
  }
}
