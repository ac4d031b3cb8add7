import type { UnreadableLine } from '../plugins/log-mark.ts';

const QUOTED = 10;
const TEXT_CHARS = 200;

/** Up to ten untrusted lines, each with its file, line and why, and how many more: what a failure message shows. */
export function quoteUnreadable(lines: readonly UnreadableLine[]): string {
  const shown = lines.slice(0, QUOTED).map((l) => {
    const text = l.text.length > TEXT_CHARS ? `${l.text.slice(0, TEXT_CHARS)}…` : l.text;
    // A raw line is quoted (it may hold any byte); a refused record is shown as parsed.
    const shown = l.line === null ? `record ${text}` : JSON.stringify(text);
    return `  ${l.file}${l.line === null ? '' : `:${l.line}`}: ${shown}\n    (${l.reason})`;
  });
  if (lines.length > QUOTED) shown.push(`  … and ${lines.length - QUOTED} more`);
  return shown.join('\n');
}

/** The part of a message that names the span's untrusted lines; '' when there are none. */
export function besideUnreadable(lines: readonly UnreadableLine[] | undefined): string {
  if (!lines || lines.length === 0) return '';
  return `\nand ${lines.length} line(s) of the span that are no record a reader can trust (unparsed, or not the account they name):\n${quoteUnreadable(lines)}`;
}
