/**
 * Cuts the top-level objects out of a JSON-array log that may still be open (MySQL Enterprise Audit writes `[` when it
 * opens the file and `]` only when it closes it), whether each object is pretty-printed over many lines or written one
 * per line with a trailing comma. Between objects, whitespace, commas and the array brackets are ignored; anything
 * else is rejected a line at a time. A string never holds a raw newline in valid JSON, so one is treated as damage and
 * scanning resumes on the next line instead of swallowing the rest of the file into a broken string.
 */
import {
  collect,
  type Framed,
  frameLines,
  INCOMPLETE_LINE,
  INCOMPLETE_RECORD,
  type RecordOutcome,
  reject,
} from './framing.ts';

export type JsonObject = Record<string, unknown>;

export const isJsonObject = (value: unknown): value is JsonObject =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** One framed record parsed as a JSON object, or the line a parser rejects it with. */
export function parseJsonObject(text: string): JsonObject | string {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    return `invalid JSON: ${(error as Error).message}`;
  }
  return isJsonObject(value) ? value : 'not a JSON object';
}

/** A log of one JSON object per line: each line parsed, then read by `fromObject`. */
export const collectJsonLines = (text: string, fromObject: (record: JsonObject) => RecordOutcome) =>
  collect(frameLines(text), (line) => {
    const record = parseJsonObject(line);
    return typeof record === 'string' ? reject(record) : fromObject(record);
  });

interface Cursor {
  text: string;
  pos: number;
  line: number;
}

export function frameJsonObjects(text: string): Framed {
  const framed: Framed = { records: [], rejected: [] };
  const cursor: Cursor = { text, pos: 0, line: 1 };
  while (cursor.pos < text.length) {
    const c = text[cursor.pos];
    if (c === '\n') cursor.line++;
    if (c === '{') readObject(cursor, framed);
    else if (c !== undefined && /[\s,[\]]/.test(c)) cursor.pos++;
    else rejectRestOfLine(cursor, framed);
  }
  return framed;
}

/** Reads the object starting at the cursor and leaves the cursor after it (or after the damaged line). */
function readObject(cursor: Cursor, framed: Framed): void {
  const { text } = cursor;
  const start = { pos: cursor.pos, line: cursor.line };
  const piece = () => ({ line: start.line, text: text.slice(start.pos, cursor.pos) });
  let depth = 0;
  let inString = false;
  for (; cursor.pos < text.length; cursor.pos++) {
    const c = text[cursor.pos];
    if (c === '\n' && inString) {
      framed.rejected.push({ ...piece(), reason: 'line break inside a JSON string' });
      return;
    }
    if (c === '\n') cursor.line++;
    else if (inString) {
      if (c === '\\' && text[cursor.pos + 1] !== '\n') cursor.pos++;
      else if (c === '"') inString = false;
    } else if (c === '"') inString = true;
    else if (c === '{') depth++;
    else if (c === '}' && --depth === 0) {
      cursor.pos++;
      framed.records.push(piece());
      return;
    }
  }
  framed.rejected.push({ ...piece(), reason: INCOMPLETE_RECORD });
}

function rejectRestOfLine(cursor: Cursor, framed: Framed): void {
  const eol = cursor.text.indexOf('\n', cursor.pos);
  const end = eol < 0 ? cursor.text.length : eol;
  const reason = eol < 0 ? INCOMPLETE_LINE : 'not part of a JSON object';
  framed.rejected.push({ line: cursor.line, text: cursor.text.slice(cursor.pos, end), reason });
  cursor.pos = end;
}
