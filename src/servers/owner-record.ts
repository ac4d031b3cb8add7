import { constants } from 'node:fs';
import { open, rename, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { z } from 'zod';
import { processState, startTicksOf } from './proc-table.ts';

/** One process as a run recorded it: a pid names the same process only while its start time matches. */
const recordedProcess = z.object({
  pid: z.number().int().positive(),
  startTicks: z.number().int().nonnegative().nullable(),
});

/** What a run's folder says of who made it (owner.json): the harness process, then each server it launched. */
const ownerRecordSchema = z.strictObject({
  owner: recordedProcess,
  servers: z.array(recordedProcess),
});
export type OwnerRecord = z.infer<typeof ownerRecordSchema>;

export const ownerFile = 'owner.json';
/** What runs before owner.json wrote: the owner's pid alone. */
const legacyOwnerFile = 'owner.pid';

/** Reads a file in a run's folder without following a symlink put in its place. */
async function readNoFollow(file: string): Promise<string | null> {
  const handle = await open(file, constants.O_RDONLY | constants.O_NOFOLLOW).catch(() => null);
  if (!handle) return null;
  try {
    return await handle.readFile('utf8');
  } finally {
    await handle.close();
  }
}

/** The folder's record, an old owner.pid read as a pid with no start time, or null (no record, or not one). */
export async function readOwnerRecord(dir: string): Promise<OwnerRecord | null> {
  const json = await readNoFollow(path.join(dir, ownerFile));
  if (json !== null) {
    try {
      const parsed = ownerRecordSchema.safeParse(JSON.parse(json));
      return parsed.success ? parsed.data : null;
    } catch {
      return null;
    }
  }
  const pid = Number((await readNoFollow(path.join(dir, legacyOwnerFile)))?.trim());
  return Number.isSafeInteger(pid) && pid > 0 ? { owner: { pid, startTicks: null }, servers: [] } : null;
}

async function writeRecord(dir: string, record: OwnerRecord): Promise<void> {
  // Written aside and renamed: a sweep never reads half a record.
  const part = path.join(dir, `${ownerFile}.part`);
  await writeFile(part, `${JSON.stringify(record)}\n`, { mode: 0o644 });
  await rename(part, path.join(dir, ownerFile));
}

/** Records this process as the folder's owner, before anything is started for it. */
export async function writeOwnerRecord(dir: string): Promise<void> {
  const owner = { pid: process.pid, startTicks: await startTicksOf(process.pid) };
  await writeRecord(dir, { owner, servers: [] });
}

/** Adds a server this process launched for the folder. */
export async function recordServer(dir: string, pid: number): Promise<void> {
  const record = (await readOwnerRecord(dir)) ?? {
    owner: { pid: process.pid, startTicks: await startTicksOf(process.pid) },
    servers: [],
  };
  record.servers.push({ pid, startTicks: await startTicksOf(pid) });
  await writeRecord(dir, record);
}

/** Whether the recorded owner still runs: its pid alive with the same start time (a reused pid is another process). */
export async function ownerRunning(record: OwnerRecord): Promise<boolean> {
  const state = await processState(record.owner.pid);
  if (!state.running) return false;
  const { startTicks } = record.owner;
  return startTicks === null || state.startTicks === null || state.startTicks === startTicks;
}
