import path from 'node:path';
import type { ServerFile } from '../servers/started-server.ts';

/** A plugin's log file or one of its rotated copies (`<file>.<n>`, n zero-padded by some plugins). */
export interface LogFile extends ServerFile {
  /** 0 for the current file, n for `<file>.<n>`: the larger, the older. */
  generation: number;
}

/** Picks the current log and its rotated copies out of a directory listing, oldest first. */
export function selectLogFiles(files: ServerFile[], logFile: string): LogFile[] {
  const base = path.basename(logFile);
  const dir = path.dirname(logFile);
  const out: LogFile[] = [];
  for (const file of files) {
    if (path.dirname(file.name) !== dir && !(dir === '.' && !file.name.includes('/'))) continue;
    const name = path.basename(file.name);
    if (name === base) out.push({ ...file, generation: 0 });
    else if (name.startsWith(`${base}.`) && /^\d+$/.test(name.slice(base.length + 1))) {
      out.push({ ...file, generation: Number(name.slice(base.length + 1)) });
    }
  }
  return out.sort((a, b) => b.generation - a.generation);
}

export const totalBytes = (files: ServerFile[]): number => files.reduce((sum, f) => sum + f.sizeBytes, 0);

/**
 * Follows log growth across rotation from listings taken over time: each file is known by its id, which a rename
 * keeps, so bytes are counted once however often the file moves. Bytes are lost only if a file is created and
 * deleted between two listings, which takes `rotations + 1` rotations: list more often than that.
 */
export class LogGrowth {
  readonly #start = new Map<string, number>();
  readonly #last = new Map<string, number>();

  constructor(initial: ServerFile[]) {
    for (const f of initial) {
      this.#start.set(f.fileId, f.sizeBytes);
      this.#last.set(f.fileId, f.sizeBytes);
    }
  }

  observe(files: ServerFile[]): void {
    for (const f of files) {
      if (!this.#start.has(f.fileId)) this.#start.set(f.fileId, 0);
      this.#last.set(f.fileId, Math.max(this.#last.get(f.fileId) ?? 0, f.sizeBytes));
    }
  }

  /** Bytes written since construction, over every file seen. */
  get bytesWritten(): number {
    let sum = 0;
    for (const [id, last] of this.#last) sum += last - (this.#start.get(id) ?? 0);
    return sum;
  }
}
