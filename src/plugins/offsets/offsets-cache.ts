import { constants } from 'node:fs';
import { lstat, mkdir, open, rename, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { z } from 'zod';
import { notOwnedWhy } from '../../servers/owned-path.ts';
import type { OffsetLayout } from './layout.ts';

/** Outside any folder a user supplies (never written into): root's is readable by the server's own OS user. */
export const offsetsCacheRoot = (): string =>
  process.getuid?.() === 0 ? '/var/cache/auditbench' : path.join(os.homedir(), '.cache', 'auditbench');

// Printed to the terminal as they are: no control character may reach it.
const printable = z.string().regex(/^[^\p{Cc}]*$/u, 'holds a control character');

/** One cached derivation. Its value goes into my.cnf, so it is numbers and commas only, one number per field. */
export const cachedOffsetsSchema = (layout: OffsetLayout) =>
  z.strictObject({
    value: z
      .string()
      .regex(/^\d{1,9}(,\d{1,9})*$/, 'is not comma-separated numbers')
      .refine((value) => value.split(',').length === layout.fields.length, {
        message: `does not hold ${layout.fields.length} numbers (one per field of ${layout.id})`,
      }),
    lines: z.array(printable).max(layout.fields.length),
    mariadbd: printable,
    headers: printable,
  });
export type CachedOffsets = z.infer<ReturnType<typeof cachedOffsetsSchema>>;

/**
 * Makes or checks each folder from the cache root down to `<root>/offsets/<layout id>`: every one must be the running
 * user's, writable by no one else, and not a symlink. The folder, or why the cache cannot be used.
 */
export async function offsetsCacheDir(
  root: string,
  layout: OffsetLayout,
): Promise<{ dir: string } | { why: string }> {
  const parentMade = await mkdir(path.dirname(root), { recursive: true }).then(
    () => null,
    (error: Error) => error.message,
  );
  if (parentMade) return { why: parentMade };
  let dir = '';
  for (const level of [root, path.join(root, 'offsets'), path.join(root, 'offsets', layout.id)]) {
    dir = level;
    // 0o755 less the umask, so never writable by others; a folder already there is checked as it is.
    await mkdir(level, { mode: 0o755 }).catch(() => {});
    const info = await lstat(level).catch(() => null);
    const why = info === null ? 'it could not be made' : notOwnedWhy(info, 'folder');
    if (why) return { why: `${level}: ${why}` };
  }
  return { dir };
}

export type CacheRead = { found: CachedOffsets } | { missing: true } | { bad: string };

/** Reads one entry without following a symlink, owned by the running user and writable by no one else, then parsed. */
export async function readCachedOffsets(file: string, layout: OffsetLayout): Promise<CacheRead> {
  let text: string;
  try {
    const handle = await open(file, constants.O_RDONLY | constants.O_NOFOLLOW);
    try {
      const why = notOwnedWhy(await handle.stat(), 'file');
      if (why) return { bad: why };
      text = await handle.readFile('utf8');
    } finally {
      await handle.close();
    }
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') return { missing: true };
    return { bad: code === 'ELOOP' ? 'it is a symlink' : `it cannot be read (${code ?? String(error)})` };
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    return { bad: `it is not whole JSON (${text.length} bytes)` };
  }
  const parsed = cachedOffsetsSchema(layout).safeParse(json);
  if (parsed.success) return { found: parsed.data };
  const issue = parsed.error.issues[0];
  return { bad: `${issue?.path.join('.') || 'the entry'} ${issue?.message ?? 'does not fit the schema'}` };
}

/** Writes an entry beside its place (created afresh, never through a symlink) and renames it over the old one. */
export async function writeCachedOffsets(file: string, entry: CachedOffsets): Promise<void> {
  const part = `${file}.part`;
  await rm(part, { force: true });
  await writeFile(part, `${JSON.stringify(entry, null, 2)}\n`, { flag: 'wx', mode: 0o644 });
  await rename(part, file);
}

/** A derivation's work folder, made afresh: whatever was at its path (a symlink included) is removed, not followed. */
export async function freshWorkDir(work: string): Promise<void> {
  await rm(work, { recursive: true, force: true });
  await mkdir(work, { mode: 0o700 });
}
