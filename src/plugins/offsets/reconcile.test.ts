import { readFileSync } from 'node:fs';
import { describe, expect, test } from 'vitest';
import { mcafeeOffsetLayout } from '../../profiles/mcafee-offsets.ts';
import { parseDisassembly, parseFieldOffsets } from './gdb-output.ts';
import type { OffsetLayout } from './layout.ts';
import { accessorOffsets, describeOffsets, offsetsValue, reconcileOffsets } from './reconcile.ts';

// Recorded on Debian 12: gdb on /usr/sbin/mariadbd 10.11.19-MariaDB-0+deb12u1 (sha256 9b44b62c…), and on the probe
// compiled against Debian's mariadb 1:10.11.18-0+deb12u1 source (10.11.19's is listed but not served).
const fixture = (name: string) =>
  readFileSync(new URL(`../../../fixtures/gdb/${name}`, import.meta.url), 'utf8');
const binary = fixture('mariadbd-10.11.19-0+deb12u1-accessors.txt');
const source = fixture('probe-debian-10.11.18-0+deb12u1.txt');

describe('the offsets of Debian 10.11.19 from recorded gdb output', () => {
  const reconciled = reconcileOffsets(
    mcafeeOffsetLayout,
    parseFieldOffsets(source),
    accessorOffsets(mcafeeOffsetLayout, parseDisassembly(binary)),
  );

  test('equal the 26 numbers docs/plugins.md gives (derived 2026-12-01 by the former script)', () => {
    expect(reconciled.ok && offsetsValue(reconciled.offsets)).toBe(
      '15976,16152,7984,10200,88,3672,8,0,16,24,160,16284,9784,5688,5696,5700,704,0,0,15232,15256,15240,25312,564,8,0',
    );
  });

  test('THD::m_stmt_da is read off the binary: 64 bytes past the neighbouring source', () => {
    const stmtDa = reconciled.ok ? reconciled.offsets.find((o) => o.field === 'THD.m_stmt_da') : null;
    expect(stmtDa).toEqual({ field: 'THD.m_stmt_da', value: 25312, sourceValue: 25248, origin: 'binary' });
  });

  test('each number says where it came from', () => {
    const lines = reconciled.ok ? describeOffsets(reconciled.offsets) : [];
    expect(lines).toHaveLength(26);
    expect(lines[2]).toMatch(/^ 3 THD\.main_security_ctx +source +7984 +7984 {2}\(shifted\)$/);
    expect(lines[17]).toMatch(/^18 \(unused on MariaDB\) +0 {2}\(unused\)$/);
  });
});

describe('parseDisassembly', () => {
  test('memory operands in order, (%reg) as 0, a label or immediate not an operand', () => {
    const text = [
      'Dump of assembler code for function f:',
      '   0x10 <+0>:\tmov    0x25f8(%rdi),%rax',
      '   0x17 <+7>:\tje     0x7de2b0 <f+16>',
      '   0x19 <+9>:\tcmpl   $0x5,0x234(%rax)',
      '   0x20 <+16>:\tmov    (%rax),%rax',
      'End of assembler dump.',
      'No symbol "missing" in current context.',
    ].join('\n');
    expect(parseDisassembly(text)).toEqual(new Map([['f', [0x25f8, 0x234, 0]]]));
  });
});

describe('reconcileOffsets', () => {
  const layout = (fields: (string | null)[]): OffsetLayout => ({
    ...mcafeeOffsetLayout,
    fields,
    anchorsOnly: [],
  });
  const map = (entries: Record<string, number>) => new Map(Object.entries(entries));

  test.for([
    [
      'between anchors that agree: shifted',
      { 'T.a': 100, 'T.b': 200, 'T.c': 300 },
      { 'T.a': 108, 'T.c': 308 },
      208,
      'shifted',
    ],
    ['one anchor only: its shift', { 'T.a': 100, 'T.b': 200 }, { 'T.a': 96 }, 196, 'one-sided'],
    ['no anchor in its structure: the source', { 'T.b': 200, 'U.a': 8 }, { 'U.a': 16 }, 200, 'source'],
  ] as const)('%s', ([, sourceOffsets, binaryOffsets, value, origin]) => {
    const result = reconcileOffsets(layout(['T.b']), map(sourceOffsets), map(binaryOffsets));
    expect(result.ok && result.offsets[0]).toMatchObject({ value, origin });
  });

  test('anchors that moved differently around a field: refused, naming it', () => {
    const result = reconcileOffsets(
      layout(['T.b']),
      map({ 'T.a': 100, 'T.b': 200, 'T.c': 300 }),
      map({ 'T.a': 100, 'T.c': 364 }),
    );
    expect(result).toEqual({
      ok: false,
      why: 'T.b lies between anchors that moved differently (0 below, 64 above)',
    });
  });

  test('a field the probe could not read: refused, naming it', () => {
    expect(reconcileOffsets(layout(['T.x']), map({}), map({}))).toEqual({
      ok: false,
      why: "T.x is not in the source tree's layout (gdb could not read it from the probe)",
    });
  });
});
