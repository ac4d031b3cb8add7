import { constants } from 'node:fs';
import { mkdir, open, readFile } from 'node:fs/promises';
import path from 'node:path';
import { refuseLinks } from '../results/safe-path.ts';
import type { HistoryEntry } from './entry.ts';
import { formatHistoryLines, type ParsedHistory, parseHistory } from './parse-history.ts';

export const HISTORY_FILE = 'history.jsonl';

/** Reads the history; a missing file is an empty history. */
export async function readHistory(file: string): Promise<ParsedHistory> {
  try {
    return parseHistory(await readFile(file, 'utf8'), file);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return { entries: [], warnings: [] };
    throw new Error(`Cannot read the history ${file}: ${(error as Error).message}`, { cause: error });
  }
}

/**
 * Appends one invocation's entries with a single O_APPEND write, so concurrent or killed invocations never interleave or
 * rewrite lines. Existing lines are never touched: after a torn last line the new lines start on a line of their own.
 * Never through a symbolic link (src/results/safe-path.ts): one committed in the clone would lead the write elsewhere.
 */
export async function appendHistory(file: string, entries: readonly HistoryEntry[]): Promise<void> {
  if (entries.length === 0) return;
  await refuseLinks(file);
  await mkdir(path.dirname(file), { recursive: true });
  const { O_RDWR, O_CREAT, O_APPEND, O_NOFOLLOW } = constants;
  const handle = await open(file, O_RDWR | O_CREAT | O_APPEND | O_NOFOLLOW, 0o666);
  try {
    const { size } = await handle.stat();
    let text = formatHistoryLines(entries);
    if (size > 0) {
      const last = Buffer.alloc(1);
      await handle.read(last, 0, 1, size - 1);
      if (last[0] !== 0x0a) text = `\n${text}`;
    }
    const data = Buffer.from(text, 'utf8');
    const { bytesWritten } = await handle.write(data);
    if (bytesWritten !== data.length) {
      throw new Error(
        `Wrote ${bytesWritten} of ${data.length} bytes to ${file} (disk full?); the next read ignores the torn line`,
      );
    }
  } finally {
    await handle.close();
  }
}
