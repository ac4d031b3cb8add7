import type { LogEvents } from '../plugins/log-reader.ts';
import { readLogEvents } from '../plugins/log-reader.ts';
import type { PluginProfile } from '../plugins/profile.ts';
import type { StartedServer } from '../servers/started-server.ts';
import type { SentMarker } from './count.ts';
import type { Claims } from './kinds.ts';
import { type FoundMarkers, findMarkers } from './markers.ts';

export interface LogReading {
  log: LogEvents;
  found: FoundMarkers;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Whether every acked marker of a claimed kind is in the log. */
export const allClaimedFound = (sent: SentMarker[], found: FoundMarkers, claims: Claims): boolean =>
  sent.every((s) => s.outcome !== 'acked' || claims[s.kind] !== 'logged' || found[s.kind].has(s.id));

/**
 * Reads every log file (current and rotated) and finds the phase's markers. With `settleMs`, reads again until every
 * claimed marker is there or the time is up: a connect is audited after the client has its answer.
 */
export async function readMarkers(
  server: StartedServer,
  profile: PluginProfile,
  tag: string,
  wait: { sent: SentMarker[]; claims: Claims; settleMs: number } | null,
): Promise<LogReading> {
  const deadline = Date.now() + (wait?.settleMs ?? 0);
  for (;;) {
    const log = await readLogEvents(server, profile);
    const found = findMarkers(log.events, tag);
    if (!wait || Date.now() >= deadline || allClaimedFound(wait.sent, found, wait.claims))
      return { log, found };
    await sleep(250);
  }
}
