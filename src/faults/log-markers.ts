import { findMarkers } from '../completeness/markers.ts';
import type { LogFormat } from '../plugins/logs/index.ts';
import { logParsers } from '../plugins/logs/index.ts';
import type { StartedServer } from '../servers/started-server.ts';
import { isFiller } from './fault-fs.ts';

/** Which file each `failed` marker of the tag landed in (file name relative to the datadir → marker ids). */
export type Landing = Map<string, Set<number>>;

/** Reads every file in the fault directory (filler aside) and finds the tag's `failed` markers in each. */
export async function readLanding(
  server: StartedServer,
  dir: string,
  format: LogFormat,
  tag: string,
): Promise<Landing> {
  const landing: Landing = new Map();
  for (const file of await server.listFiles(dir)) {
    if (isFiller(file.name)) continue;
    // A hole left by a truncate reads as NUL bytes: drop them so the lines around it still parse.
    const text = (await server.readFile(file.name)).toString('utf8').replaceAll('\0', '');
    const found = findMarkers(logParsers[format](text).events, tag).failed;
    landing.set(file.name, new Set(found.keys()));
  }
  return landing;
}

/** Whether marker n is in any file. */
export const landed = (landing: Landing, n: number): boolean =>
  [...landing.values()].some((ids) => ids.has(n));

/** How many of the markers are in each file; a marker in no file counts under 'nowhere'. */
export function landingCounts(landing: Landing, ids: number[]): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const n of ids) {
    const files = [...landing.entries()].filter(([, set]) => set.has(n)).map(([name]) => name);
    for (const name of files.length > 0 ? files : ['nowhere']) counts[name] = (counts[name] ?? 0) + 1;
  }
  return counts;
}
