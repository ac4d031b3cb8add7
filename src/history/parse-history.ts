import { type HistoryEntry, historyEntrySchema } from './entry.ts';

export interface ParsedHistory {
  entries: HistoryEntry[];
  /** One line per ignored line; never fatal, a history is evidence, not configuration. */
  warnings: string[];
}

function parseLine(line: string): { entry: HistoryEntry } | { problem: string } {
  let value: unknown;
  try {
    value = JSON.parse(line);
  } catch {
    return { problem: 'not JSON' };
  }
  const version = (value as { v?: unknown } | null)?.v;
  if (typeof version === 'number' && version > 1) {
    return { problem: `format v${version} is from a newer auditbench` };
  }
  const parsed = historyEntrySchema.safeParse(value);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    return { problem: `field '${issue?.path.join('.') ?? '?'}': ${issue?.message ?? 'invalid'}` };
  }
  return { entry: parsed.data };
}

/**
 * Parses history.jsonl text. A last line without its newline is an invocation killed mid-write: it is ignored with a
 * warning, as is any other line that is not an entry, so one bad line never hides the rest of the history.
 */
export function parseHistory(text: string, source = 'history.jsonl'): ParsedHistory {
  const lines = text.split('\n');
  const torn = !text.endsWith('\n');
  const entries: HistoryEntry[] = [];
  const warnings: string[] = [];
  lines.forEach((line, index) => {
    if (line.trim() === '') return;
    const parsed = parseLine(line);
    if ('entry' in parsed) {
      entries.push(parsed.entry);
      return;
    }
    const where = `${source} line ${index + 1}`;
    warnings.push(
      torn && index === lines.length - 1
        ? `${where} is incomplete (an invocation killed while writing?); ignored`
        : `${where} ignored: ${parsed.problem}`,
    );
  });
  return { entries, warnings };
}

/** history.jsonl text for entries: one JSON object per line, each line ending in a newline. */
export function formatHistoryLines(entries: readonly HistoryEntry[]): string {
  return entries.map((entry) => `${JSON.stringify(entry)}\n`).join('');
}
