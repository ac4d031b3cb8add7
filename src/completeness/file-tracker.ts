import type { ServerFile } from '../servers/started-server.ts';

export interface FileSummary {
  /** Log files created after the phase began: one per rotation (or per switch to a new file). */
  rotations: number;
  /** Files seen during the phase that were gone at the end: deleted before they could be read. */
  deleted: string[];
  /** Files at the end. */
  files: number;
}

/**
 * Follows a plugin's log files by identity over listings taken during a phase. A rename keeps a file's id, so each
 * new id after the first listing is a file the plugin opened anew: a rotation.
 */
export class FileTracker {
  readonly #baseline: Set<string>;
  readonly #seen = new Map<string, string>();

  constructor(initial: ServerFile[]) {
    this.#baseline = new Set(initial.map((f) => f.fileId));
    this.observe(initial);
  }

  observe(files: ServerFile[]): void {
    for (const f of files) this.#seen.set(f.fileId, f.name);
  }

  summarise(final: ServerFile[]): FileSummary {
    this.observe(final);
    const present = new Set(final.map((f) => f.fileId));
    const created = [...this.#seen.keys()].filter((id) => !this.#baseline.has(id));
    const deleted = [...this.#seen].filter(([id]) => !present.has(id)).map(([, name]) => name);
    return { rotations: created.length, deleted, files: final.length };
  }
}
