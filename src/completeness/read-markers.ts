import { type Clock, realClock } from '../machine/clock.ts';
import type { LogParseResult } from '../plugins/audit-event.ts';
import type { LogFile } from '../plugins/log-files.ts';
import { listLogFiles } from '../plugins/log-reader.ts';
import { logParsers } from '../plugins/logs/index.ts';
import type { PluginProfile } from '../plugins/profile.ts';
import type { StartedServer } from '../servers/started-server.ts';
import type { SentMarker } from './count.ts';
import type { Claims } from './kinds.ts';
import { emptyFound, type FoundMarkers, findMarkers } from './markers.ts';

export interface LogReading {
  files: LogFile[];
  /** Lines no parser took, their reason prefixed with the file (`<file>: <reason>`). */
  rejected: LogParseResult['rejected'];
  found: FoundMarkers;
}

/** Whether every acked marker of a claimed kind is in the log. */
export const allClaimedFound = (sent: SentMarker[], found: FoundMarkers, claims: Claims): boolean =>
  sent.every((s) => s.outcome !== 'acked' || claims[s.kind] !== 'logged' || found[s.kind].has(s.id));

function addFound(into: FoundMarkers, from: FoundMarkers): void {
  for (const [kind, ids] of Object.entries(from)) {
    const target = into[kind as keyof FoundMarkers];
    for (const [id, n] of ids) target.set(id, (target.get(id) ?? 0) + n);
  }
}

/** The listing's names and file ids, to tell whether the plugin rotated between two listings. */
export const listingKey = (files: readonly LogFile[]): string =>
  files.map((f) => `${f.name}=${f.fileId}`).join('\n');

/**
 * Parses each log file with the profile's parser and counts the tag's markers file by file (logs can be large). A
 * rotation while it lists or reads shifts every rotated file's name (`.122` becomes `.123`): the listing then misses a
 * file and the reading counts one twice, so a reading whose listing changed meanwhile is taken again (a completeness
 * run once reported "sql_errors.log.123 deleted" after 120 rotations, from a listing taken during one).
 */
async function readOnce(
  server: StartedServer,
  profile: PluginProfile,
  tag: string,
  clock: Clock,
): Promise<LogReading> {
  if (profile.log.format === null) return { files: [], rejected: [], found: emptyFound() };
  for (let attempt = 1; ; attempt++) {
    const reading = await readListed(server, profile, tag);
    const after = await listLogFiles(server, profile);
    if (listingKey(after) === listingKey(reading.files) || attempt >= 5) return reading;
    await clock.sleepMs(100);
  }
}

async function readListed(server: StartedServer, profile: PluginProfile, tag: string): Promise<LogReading> {
  const reading: LogReading = { files: [], rejected: [], found: emptyFound() };
  const format = profile.log.format;
  if (format === null) return reading;
  const parse = logParsers[format];
  reading.files = await listLogFiles(server, profile);
  for (const file of reading.files) {
    const { events, rejected } = parse((await server.readFile(file.name)).toString('utf8'));
    addFound(reading.found, findMarkers(events, tag));
    for (const r of rejected) reading.rejected.push({ ...r, reason: `${file.name}: ${r.reason}` });
  }
  return reading;
}

/**
 * Reads every log file (current and rotated) and finds the phase's markers. With `wait`, reads again until every
 * claimed marker is there or `settleMs` is up: MariaDB answers the client before it calls the audit plugins.
 */
export async function readMarkers(
  server: StartedServer,
  profile: PluginProfile,
  tag: string,
  wait: { sent: SentMarker[]; claims: Claims; settleMs: number } | null,
  clock: Clock = realClock,
): Promise<LogReading> {
  const deadline = clock.nowMs() + (wait?.settleMs ?? 0);
  for (;;) {
    const reading = await readOnce(server, profile, tag, clock);
    if (!wait || clock.nowMs() >= deadline || allClaimedFound(wait.sent, reading.found, wait.claims))
      return reading;
    await clock.sleepMs(250);
  }
}
