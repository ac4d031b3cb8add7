import { describe, expect, test } from 'vitest';
import { INCOMPLETE_LINE, INCOMPLETE_RECORD } from './framing.ts';
import { decodeXml, frameXmlRecords, xmlFields } from './xml-records.ts';

const head = '<?xml version="1.0" encoding="UTF-8"?>\n<!-- a comment\n over two lines -->\n<AUDIT>\n';
const old = '<AUDIT_RECORD\n  NAME="Query"\n  STATUS="0"\n/>\n';
const neu = '<AUDIT_RECORD>\n  <NAME>Quit</NAME>\n  <DB></DB>\n</AUDIT_RECORD>\n';

describe('frameXmlRecords', () => {
  test('cuts records of both styles and skips the declaration, comments and the AUDIT element', () => {
    expect(frameXmlRecords(`${head}${old}  ${neu}</AUDIT>\n`)).toEqual({
      records: [
        { line: 5, text: old.trimEnd() },
        { line: 9, text: neu.trimEnd() },
      ],
      rejected: [],
    });
  });

  test.for<[string, string, { line: number; reason: string }]>([
    [
      'a record cut off at the end',
      `${old}<AUDIT_RECORD\n  NAME="Que`,
      { line: 5, reason: INCOMPLETE_RECORD },
    ],
    ['an element record cut off', `${old}${neu.slice(0, 30)}`, { line: 5, reason: INCOMPLETE_RECORD }],
    ['stray text before a record', `garbage\n${old}`, { line: 1, reason: 'not an audit record' }],
    [
      'a tag that never closes',
      `${old.replace('/>\n', '')}${old}`,
      { line: 1, reason: 'record tag not closed' },
    ],
    [
      'an element record left open',
      `${neu.replace('</AUDIT_RECORD>\n', '')}${old}`,
      { line: 1, reason: 'record not closed before the next one' },
    ],
    ['a half-written closing tag', `${old}</AUD`, { line: 5, reason: INCOMPLETE_LINE }],
  ])('rejects %s and keeps the whole records', ([, text, expected]) => {
    const { records, rejected } = frameXmlRecords(text);
    expect(records).toHaveLength(1);
    expect(rejected.map(({ line, reason }) => ({ line, reason }))).toEqual([expected]);
  });
});

describe('xmlFields', () => {
  test.for<[string, 'attributes' | 'elements', Record<string, string> | string]>([
    ['attributes', 'attributes', { NAME: 'Query', STATUS: '0' }],
    ['elements', 'elements', { NAME: 'Quit', DB: '' }],
  ])('reads %s', ([, style, expected]) => {
    expect(xmlFields((style === 'attributes' ? old : neu).trimEnd(), style)).toEqual(expected);
  });

  test.for<[string, string, 'attributes' | 'elements', string]>([
    ['an unquoted attribute', '<AUDIT_RECORD NAME=Query/>', 'attributes', 'malformed attributes'],
    [
      'an element record in an attribute log',
      neu.trimEnd(),
      'attributes',
      'element-style record in an attribute-style log',
    ],
    [
      'an attribute record in an element log',
      old.trimEnd(),
      'elements',
      'attribute-style record in an element-style log',
    ],
    [
      'a mismatched element',
      '<AUDIT_RECORD><NAME>Quit</DB></AUDIT_RECORD>',
      'elements',
      'malformed element near "<NAME>Quit</DB>"',
    ],
  ])('rejects %s', ([, record, style, reason]) => {
    expect(xmlFields(record, style)).toBe(reason);
  });
});

// xml_escape() in plugin/audit_log/audit_log.cc writes &lt; &gt; &amp; &quot; and &#N; for control characters.
test.for<[string, string]>([
  ['&lt;&gt;&amp;&quot;&apos;', `<>&"'`],
  ['a&#10;b&#9;c&#13;', 'a\nb\tc\r'],
  ['&#x263A; &#X41;', '☺ &#X41;'],
  ['&amp;lt; stays &lt;', '&lt; stays <'],
  ['&bogus; &#1114112; & alone', '&bogus; &#1114112; & alone'],
])('decodeXml(%j)', ([encoded, decoded]) => {
  expect(decodeXml(encoded)).toBe(decoded);
});
