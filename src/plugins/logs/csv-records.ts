/**
 * Quoted CSV as Percona audit_log writes it (csv_escape() in plugin/audit_log/audit_log.cc): strings in double quotes
 * with `"` doubled, numbers bare, and nothing else escaped, so a statement's newlines stay raw inside its quotes and a
 * record can span lines.
 */
import { type Framed, INCOMPLETE_LINE, INCOMPLETE_RECORD } from './framing.ts';

/** Cuts records at newlines outside quotes. A doubled quote toggles twice, so counting quotes is enough. */
export function frameCsvRecords(text: string): Framed {
  const framed: Framed = { records: [], rejected: [] };
  let inQuotes = false;
  let start = 0;
  let startLine = 1;
  let line = 1;
  for (let i = 0; i < text.length; i++) {
    if (text[i] === '"') inQuotes = !inQuotes;
    else if (text[i] === '\n') {
      if (!inQuotes) {
        const record = { line: startLine, text: text.slice(start, i) };
        if (record.text === '') framed.rejected.push({ ...record, reason: 'empty line' });
        else framed.records.push(record);
        start = i + 1;
        startLine = line + 1;
      }
      line++;
    }
  }
  if (start < text.length) {
    const reason = inQuotes ? INCOMPLETE_RECORD : INCOMPLETE_LINE;
    framed.rejected.push({ line: startLine, text: text.slice(start), reason });
  }
  return framed;
}

export interface CsvField {
  value: string;
  quoted: boolean;
}

const FIELD = /"((?:[^"]|"")*)"|([^,"\n]*)/y;

/** Splits one record into fields; a string says where it stops being CSV. */
export function csvFields(record: string): CsvField[] | string {
  const fields: CsvField[] = [];
  for (let at = 0; ; at++) {
    FIELD.lastIndex = at;
    const m = FIELD.exec(record);
    if (!m) return `unreadable field at column ${at + 1}`;
    const quoted = m[1] !== undefined;
    fields.push({ value: quoted ? (m[1] ?? '').replaceAll('""', '"') : (m[2] ?? ''), quoted });
    at = FIELD.lastIndex;
    if (at === record.length) return fields;
    if (record[at] !== ',') return `expected "," at column ${at + 1}, got ${JSON.stringify(record[at])}`;
  }
}
