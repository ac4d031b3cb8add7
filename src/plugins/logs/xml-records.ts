/**
 * Reads `<AUDIT_RECORD>` records out of an XML audit log (Percona audit_log OLD and NEW formats) without a general XML
 * parser: the plugin escapes `<`, `>`, `&` and `"` in every value (xml_escape() in plugin/audit_log/audit_log.cc), so a
 * record ends at the first `>` (OLD, attributes) or at `</AUDIT_RECORD>` (NEW, child elements). This keeps line
 * numbers, tolerates the missing `</AUDIT>` of a file still open, and rejects one damaged record instead of the file.
 */
import { type Framed, INCOMPLETE_LINE, INCOMPLETE_RECORD } from './framing.ts';

const SPACE = /\s*/y;
const NOT_RECORDS = /<\?xml[^>]*\?>|<!--[\s\S]*?-->|<\/?AUDIT>/y;
const RECORD_START = /<AUDIT_RECORD[\s/>]/y;
const CLOSE = '</AUDIT_RECORD>';

export function frameXmlRecords(text: string): Framed {
  const framed: Framed = { records: [], rejected: [] };
  let pos = 0;
  let line = 1;
  const moveTo = (to: number) => {
    for (let i = pos; i < to; i++) if (text[i] === '\n') line++;
    pos = to;
  };
  for (;;) {
    moveTo(stickyEnd(SPACE, text, pos) ?? pos);
    if (pos >= text.length) return framed;
    const skipped = stickyEnd(NOT_RECORDS, text, pos);
    if (skipped !== null) {
      moveTo(skipped);
      continue;
    }
    const end = stickyEnd(RECORD_START, text, pos) === null ? notRecordEnd(text, pos) : recordEnd(text, pos);
    const piece = text.slice(pos, end.at).trimEnd();
    if (end.reason) framed.rejected.push({ line, text: piece, reason: end.reason });
    else framed.records.push({ line, text: piece });
    moveTo(end.at);
  }
}

interface PieceEnd {
  at: number;
  /** Why the piece is no record; undefined for a whole record. */
  reason?: string;
}

/** End of the record starting at `start`, or of the damaged piece to reject, which stops before the next `<`. */
function recordEnd(text: string, start: number): PieceEnd {
  const tagEnd = text.indexOf('>', start);
  const nextTag = text.indexOf('<', start + 1);
  if (nextTag >= 0 && (tagEnd < 0 || nextTag < tagEnd))
    return { at: nextTag, reason: 'record tag not closed' };
  if (tagEnd < 0) return { at: text.length, reason: INCOMPLETE_RECORD };
  if (text[tagEnd - 1] === '/') return { at: tagEnd + 1 };
  const close = text.indexOf(CLOSE, tagEnd);
  const next = text.indexOf('<AUDIT_RECORD', tagEnd);
  if (next >= 0 && (close < 0 || next < close))
    return { at: next, reason: 'record not closed before the next one' };
  if (close < 0) return { at: text.length, reason: INCOMPLETE_RECORD };
  return { at: close + CLOSE.length };
}

/** Stray text is rejected a line at a time, so one bad line costs one line. */
function notRecordEnd(text: string, start: number): PieceEnd {
  const eol = text.indexOf('\n', start);
  return eol < 0 ? { at: text.length, reason: INCOMPLETE_LINE } : { at: eol, reason: 'not an audit record' };
}

function stickyEnd(pattern: RegExp, text: string, at: number): number | null {
  pattern.lastIndex = at;
  return pattern.test(text) ? pattern.lastIndex : null;
}

export type XmlStyle = 'attributes' | 'elements';

const ATTRIBUTES_RECORD = /^<AUDIT_RECORD((?:\s+[A-Za-z_]+="[^"]*")*)\s*\/>$/;
const ATTRIBUTE = /([A-Za-z_]+)="([^"]*)"/g;
const ELEMENTS_RECORD = /^<AUDIT_RECORD>([\s\S]*)<\/AUDIT_RECORD>$/;
const ELEMENT = /\s*(?:<([A-Za-z_]+)>([^<]*)<\/\1>|<([A-Za-z_]+)\/>)\s*/y;

/** The fields of one record in the given style, entities decoded; a string says why the record cannot be read. */
export function xmlFields(record: string, style: XmlStyle): Record<string, string> | string {
  return style === 'attributes' ? attributeFields(record) : elementFields(record);
}

function attributeFields(record: string): Record<string, string> | string {
  const match = ATTRIBUTES_RECORD.exec(record);
  if (!match)
    return record.startsWith('<AUDIT_RECORD>')
      ? 'element-style record in an attribute-style log'
      : 'malformed attributes';
  const fields: Record<string, string> = {};
  for (const [, name = '', value = ''] of (match[1] ?? '').matchAll(ATTRIBUTE))
    fields[name] = decodeXml(value);
  return fields;
}

function elementFields(record: string): Record<string, string> | string {
  const body = ELEMENTS_RECORD.exec(record)?.[1];
  if (body === undefined)
    return record.endsWith('/>') ? 'attribute-style record in an element-style log' : 'malformed record';
  const fields: Record<string, string> = {};
  for (let at = 0; at < body.length; at = ELEMENT.lastIndex) {
    ELEMENT.lastIndex = at;
    const m = ELEMENT.exec(body);
    if (!m) return `malformed element near ${JSON.stringify(body.slice(at, at + 30))}`;
    if (m[1] !== undefined) fields[m[1]] = decodeXml(m[2] ?? '');
    else if (m[3] !== undefined) fields[m[3]] = '';
  }
  return fields;
}

const NAMED_ENTITIES: Record<string, string> = { quot: '"', amp: '&', lt: '<', gt: '>', apos: "'" };

/** Decodes the five XML entities and character references (`&#10;`, `&#x9;`); anything else is kept as written. */
export function decodeXml(text: string): string {
  return text.replace(/&(#x[0-9a-fA-F]+|#\d+|[a-zA-Z]+);/g, (all, ref: string) => {
    if (!ref.startsWith('#')) return NAMED_ENTITIES[ref] ?? all;
    const code = ref[1] === 'x' ? Number.parseInt(ref.slice(2), 16) : Number(ref.slice(1));
    return code <= 0x10_ffff ? String.fromCodePoint(code) : all;
  });
}
