import { LogGrowth } from '../plugins/log-files.ts';
import { listLogFiles } from '../plugins/log-reader.ts';
import { logParsers } from '../plugins/logs/index.ts';
import type { PluginProfile } from '../plugins/profile.ts';
import type { StartedServer } from '../servers/started-server.ts';
import type { LogCost } from './operation-cost.ts';
import type { Operation } from './operation-runner.ts';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Lists the log until its size holds still for one interval: buffered plugins write after the statement returns. */
async function settledFiles(server: StartedServer, profile: PluginProfile) {
  let files = await listLogFiles(server, profile);
  for (let i = 0; i < 10; i++) {
    await sleep(200);
    const next = await listLogFiles(server, profile);
    const same = next.length === files.length && next.every((f, j) => f.sizeBytes === files[j]?.sizeBytes);
    files = next;
    if (same) break;
  }
  return files;
}

/**
 * Runs `operation` `count` times with the plugin on and reports the log records and bytes one operation adds. Bytes
 * follow the files across rotation; records are parsed from what the current file gained, so they are null when
 * the file rotated meanwhile (or the plugin writes no file).
 */
export async function measureLogCost(
  server: StartedServer,
  profile: PluginProfile,
  operation: Operation,
  count: number,
): Promise<LogCost> {
  if (profile.log.format === null) return { eventsPerOp: null, logBytesPerOp: null };
  const before = await settledFiles(server, profile);
  const growth = new LogGrowth(before);
  for (let i = 0; i < count; i++) await operation();
  const after = await settledFiles(server, profile);
  growth.observe(after);
  const current = (files: typeof before) => files.find((f) => f.generation === 0);
  const start = current(before);
  const end = current(after);
  let eventsPerOp: number | null = null;
  if (start && end && start.fileId === end.fileId) {
    const added = (await server.readFile(end.name)).subarray(start.sizeBytes, end.sizeBytes).toString('utf8');
    eventsPerOp = logParsers[profile.log.format](added).events.length / count;
  }
  return { eventsPerOp, logBytesPerOp: growth.bytesWritten / count };
}
