// Text from outside (run titles, option names and values, file and branch names, history lines) written into
// Markdown (gate.md, summary.md, GitHub's job summary) as the characters it is: it opens no heading, list, link,
// emphasis, HTML or table cell, closes no fence, and one line stays one line. Pure; the reports call it at the edge.

/** C0 and C1 controls, DEL, and the Unicode line and paragraph separators: each could end or reshape a line. */
const isControl = (code: number): boolean =>
  code < 0x20 || (code >= 0x7f && code <= 0x9f) || code === 0x2028 || code === 0x2029;

const NAMED: Record<string, string> = { '\n': '\\n', '\r': '\\r', '\t': '\\t' };

/** Control characters as their escapes (`\n`, `\u001b`), visible and on one line. */
export const oneLine = (text: string): string =>
  Array.from(text, (c) => {
    const code = c.codePointAt(0) ?? 0;
    return isControl(code) ? (NAMED[c] ?? `\\u${code.toString(16).padStart(4, '0')}`) : c;
  }).join('');

// Characters that open or close an inline construct wherever they stand (emphasis, code, HTML, autolink, entity,
// strikethrough, math, a table's cell), and the backslash itself; CommonMark renders escaped ASCII punctuation as itself.
const ALWAYS = new Set(['\\', '`', '*', '<', '>', '|', '~', '&', '$']);
const WORD = /[\p{L}\p{N}]/u;

/** Whether `c` at `i` needs a backslash: `_` only outside a word (inside one it opens nothing), `]` only before `(`, `[` or `:` (a link). */
function needsEscape(text: string, i: number): boolean {
  const c = text[i] ?? '';
  const before = text[i - 1] ?? '';
  const after = text[i + 1] ?? '';
  if (ALWAYS.has(c)) return true;
  if (c === '_') return !(WORD.test(before) && WORD.test(after));
  return c === ']' && after !== '' && '([:'.includes(after);
}

// What opens a block only at a line's (or a list item's) start: a heading, quote, list item, setext underline,
// ordered item, task box or link definition.
const LINE_START = /^(\s*)([#>+=[-]|\d{1,9}[.)](?=\s|$))/;

/** Outside text as inline Markdown, in a paragraph, a list item, a heading or a table cell alike. */
export function mdText(text: string): string {
  const line = oneLine(text);
  let escaped = '';
  for (let i = 0; i < line.length; i++) escaped += `${needsEscape(line, i) ? '\\' : ''}${line[i]}`;
  return escaped.replace(LINE_START, (_, space: string, opener: string) =>
    /^\d/.test(opener) ? `${space}${opener.slice(0, -1)}\\${opener.slice(-1)}` : `${space}\\${opener}`,
  );
}

const longestBacktickRun = (text: string): number =>
  Math.max(0, ...[...text.matchAll(/`+/g)].map((m) => m[0].length));

/**
 * Outside text as a code span, its delimiter longer than any backtick run inside. A pipe would still split a table's
 * cell (GFM reads cells before code spans), so text holding one is written as escaped inline text instead.
 */
export function mdCode(text: string): string {
  const code = oneLine(text);
  if (code.includes('|') || code.trim() === '') return mdText(text);
  const fence = '`'.repeat(longestBacktickRun(code) + 1);
  const pad = code.startsWith('`') || code.endsWith('`') ? ' ' : '';
  return `${fence}${pad}${code}${pad}${fence}`;
}

/** Lines as a fenced code block whose fence is longer than any backtick run inside, so no line can close it. */
export function mdFence(lines: readonly string[]): string[] {
  const body = lines.map(oneLine);
  const fence = '`'.repeat(Math.max(3, ...body.map((line) => longestBacktickRun(line) + 1)));
  return [fence, ...body, fence];
}
