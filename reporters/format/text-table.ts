import Table from 'cli-table3';
import type { SectionTable } from './section.ts';

const MIN_COL = 12;
const MAX_LABEL = 28;
// A longer word (a path, a hash) is cut with an ellipsis rather than widen its column past this.
const MAX_WORD = 40;

const widest = (texts: readonly string[]): number =>
  Math.max(0, ...texts.flatMap((t) => t.split('\n').map((line) => [...line].length)));

/** A column's heading as the terminal prints it: its second line under it. */
const headText = (h: SectionTable['head'][number]): string => (h.note ? `${h.text}\n${h.note}` : h.text);

/** Padded columns, two spaces apart, indented by two; null when a line would pass widthCols or a cell has two lines. */
function columns(table: SectionTable, widthCols: number): string | null {
  const rows = [table.head.map((h) => (h.note ? `${h.text} (${h.note})` : h.text)), ...table.rows];
  if (rows.some((r) => r.some((c) => c.includes('\n')))) return null;
  const widths = table.head.map((_, c) => widest(rows.map((r) => r[c] ?? '')));
  if (2 + widths.reduce((sum, w) => sum + w + 2, -2) > widthCols) return null;
  return rows.map((r) => `  ${r.map((v, c) => v.padEnd(widths[c] ?? 0)).join('  ')}`.trimEnd()).join('\n');
}

/** The longest word of a column's cells: narrower, cli-table3 would cut it. */
const longestWord = (texts: readonly string[]): number =>
  Math.max(0, ...texts.flatMap((t) => t.split(/\s+/).map((word) => [...word].length)));

/** Widths that fit `room`: the widest columns give way first, none below its least width. */
function fill(natural: readonly number[], least: readonly number[], room: number): number[] {
  const at = (level: number) => natural.map((n, i) => Math.max(least[i] ?? 0, Math.min(n, level)));
  let level = Math.max(0, ...natural);
  while (level > 0 && at(level).reduce((sum, w) => sum + w, 0) > room) level--;
  return at(level);
}

/**
 * A word-wrapped grid within widthCols: the first column heads each row; value columns that do not fit go on to a
 * further grid, every row heading repeated. A cell wraps between words and never loses one.
 */
function grid(table: SectionTable, widthCols: number): string {
  const column = (c: number) => [
    headText(table.head[c] ?? { text: '' }),
    ...table.rows.map((r) => r[c] ?? ''),
  ];
  const natural = table.head.map((_, c) => widest(column(c)) + 2);
  const least = table.head.map((_, c) => Math.min(MAX_WORD, longestWord(column(c)) + 2));
  natural[0] = Math.min(MAX_LABEL, natural[0] ?? 0);
  least[0] = Math.min(natural[0], least[0] ?? 0);
  // A grid takes value columns while each still has MIN_COL; the rest go on to the next.
  const atLeast = (c: number) => Math.max(MIN_COL, least[c] ?? 0) + 1;
  const grids: number[][] = [];
  for (let c = 1; c < table.head.length; c++) {
    const last = grids.at(-1);
    const used = (last ?? []).reduce((sum, i) => sum + atLeast(i), (natural[0] ?? 0) + 2);
    if (last && used + atLeast(c) <= widthCols) last.push(c);
    else grids.push([c]);
  }
  return grids
    .map((chunk) => {
      const columns = [0, ...chunk];
      const text = new Table({
        head: columns.map((c) => headText(table.head[c] ?? { text: '' })),
        style: { head: [], border: [] },
        wordWrap: true,
        colWidths: fill(
          columns.map((c) => natural[c] ?? 0),
          columns.map((c) => least[c] ?? 0),
          widthCols - columns.length - 1,
        ),
      });
      for (const row of table.rows) text.push(columns.map((c) => row[c] ?? ''));
      return text.toString();
    })
    .join('\n');
}

/** A table for the terminal, within widthCols: padded columns when they fit, else a word-wrapped grid. */
export function textTable(table: SectionTable, widthCols = 120): string {
  return columns(table, widthCols) ?? grid(table, widthCols);
}
