import { describe, expect, test } from 'vitest';
import type { FaultRecord } from '../../src/results/fault-record.ts';
import type { PluginResult } from '../../src/results/schema.ts';
import {
  faultRows,
  faultsContent,
  formatFaultRecord,
  recordsCell,
  recoveryCell,
  serverCell,
} from './format-faults.ts';
import { sectionMarkdown } from './format-markdown.ts';
import { sectionText } from './format-terminal.ts';

const base: FaultRecord = {
  fault: 'disk-full',
  facts: { serverUp: true, recordsLost: true, recovery: 'by itself' },
  mismatches: [],
  longestStallS: 0.12,
  tpsBefore: 410,
  tpsDuring: 395,
  markersAcked: 118,
  markersLost: 117,
  landed: null,
  answer: null,
  serverSaid: [],
  counters: { Server_audit_writes_failed: '117' },
  durationS: 9,
};
const moved: FaultRecord = {
  ...base,
  fault: 'moved',
  facts: { writesMovedFile: true, recovery: 'after reopen' },
  markersLost: 0,
  counters: {},
  landed: { 'after mv': { 'auditbench_faultlog/server_audit.log.2': 50 } },
};
const readOnly: FaultRecord = {
  ...base,
  fault: 'read-only-dir',
  facts: { answer: 'warning', loggingOn: false },
  longestStallS: null,
  tpsBefore: null,
  tpsDuring: null,
  answer: "warning 1: SERVER AUDIT plugin can't create file",
};
const result = { title: 'MariaDB server_audit', faults: [base, moved, readOnly] } as PluginResult;

describe('fault cells', () => {
  test('a fault under load: server up, stall, TPS before → during; lost markers and failure counters', () => {
    expect(serverCell(base)).toBe('up, longest stall 0.1 s, TPS 410 → 395');
    expect(recordsCell(base)).toBe('117 of 118 lost; Server_audit_writes_failed 117');
  });

  test('a moved file says where the markers landed, by file name', () => {
    expect(recordsCell(moved)).toBe('0 of 118 lost; after mv: 50 in server_audit.log.2');
  });

  test('an enable-time fault shows the answer and whether logging is on', () => {
    expect(serverCell(readOnly)).toBe("warning: warning 1: SERVER AUDIT plugin can't create file");
    expect(recordsCell(readOnly)).toBe('logging off');
  });
});

const paused: FaultRecord = {
  ...base,
  fault: 'receiver-paused',
  facts: { serverUp: true, recovery: 'by itself' },
  longestStallS: 5.04,
  tpsBefore: 400,
  tpsDuring: 80,
  markersAcked: 300,
  markersLost: 0,
  counters: {},
  receiver: {
    faultS: 5,
    tpsAfter: 390,
    perSecond: [
      { fromFaultS: 0, phase: 'before', tps: 400 },
      { fromFaultS: 1, phase: 'during', tps: 0 },
      { fromFaultS: 6, phase: 'after', tps: 390 },
    ],
    duplicated: 0,
    outOfOrder: 0,
    recoverS: 0.04,
  },
};

describe('a receiver fault', () => {
  test('TPS before → during → after, duplicates and order, the time to recover', () => {
    expect(serverCell(paused)).toBe('up, longest stall 5.0 s, TPS 400 → 80 → 390');
    expect(recordsCell(paused)).toBe('0 of 300 lost; 0 duplicated; 0 out of order');
    expect(recoveryCell(paused)).toBe('by itself, 0.0 s after the fault');
  });

  test("the suite's line gives every second, a star on the fault's", () => {
    expect(formatFaultRecord(paused).split('\n')[1]).toBe(
      "  TPS each second from the fault's start (* during it, 5.0 s): 0 s 400 | 1 s 0* | 6 s 390",
    );
  });
});

describe('the fault table', () => {
  test('one row per plugin × fault; a mismatch is named in the recovery cell', () => {
    const differs = {
      ...result,
      faults: [
        { ...base, mismatches: ['disk-full: recovery expected "by itself", observed "after restart"'] },
      ],
    };
    expect(faultRows([differs])[0]?.[4]).toContain('differs from the profile');
    expect(faultRows([result]).map((row) => row.slice(0, 2))).toEqual([
      ['MariaDB server_audit', 'disk-full'],
      ['MariaDB server_audit', 'moved'],
      ['MariaDB server_audit', 'read-only-dir'],
    ]);
  });

  test('no rows without faults, so the section does not show', () => {
    const none = { title: 'x' } as PluginResult;
    expect(faultRows([none])).toEqual([]);
  });

  test('markdown escapes pipes and has a header row', () => {
    const md = sectionMarkdown('Faults', faultsContent([{ ...result, title: 'a|b' }])).join('\n');
    expect(md).toContain('| plugin | fault | server | audit records | recovery |');
    expect(md).toContain('a\\|b');
  });

  test('the terminal wraps the table within 120 columns, however long a cell', () => {
    const long = { ...readOnly, answer: 'x'.repeat(300) };
    const text = sectionText(faultsContent([{ ...result, faults: [base, long] }]));
    const lines = text.split('\n');
    expect(lines[0]).toBe('plugin × fault');
    expect(text).toMatch(/│ disk-full +│ up/);
    expect(text).toMatch(/117 of 118 lost/);
    expect(Math.max(...lines.map((l) => [...l].length))).toBeLessThanOrEqual(120);
  });
});
