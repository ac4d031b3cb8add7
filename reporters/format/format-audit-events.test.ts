import { expect, test } from 'vitest';
import { recordedReportInput, sweepReportInput } from '../../test/support/report-fixtures.ts';
import { auditEventsCell, auditEventsLine, perTxnText } from './format-audit-events.ts';

const [stock, , idle, dml] = sweepReportInput().file.results;
const [recorded] = recordedReportInput().file.results;
if (!stock || !idle || !dml || !recorded) throw new Error('fixtures hold their results');

test('events per transaction by class, most first, beside the log bytes and the traffic accounts', () => {
  expect(auditEventsCell(stock)).toBe('34.0 (QUERY 20.0, TABLE 14.0)');
  expect(auditEventsLine(dml)).toBe(
    "logged 4.0 audit events per transaction (QUERY 4.0), 3350 log bytes; 4.0 of them from the traffic's accounts (auditbench_app, auditbench_checks)",
  );
});

test('an idle run shows its advice once: not again when the verdict reason is it', () => {
  expect(auditEventsCell(idle)).toBe('0.0 (idle)');
  expect(auditEventsLine(idle)).toBeNull();
  const advice = idle.measurement?.auditEvents?.advice;
  const other = {
    ...idle,
    measurement: idle.measurement && { ...idle.measurement, reason: 'overhead 1.3%' },
  };
  expect(auditEventsLine(other)).toBe(advice);
});

test('a result measured before the field shows a dash and no line', () => {
  expect(auditEventsCell(recorded)).toBe('–');
  expect(auditEventsLine(recorded)).toBeNull();
});

test.for([
  [20, '20.0'],
  [1, '1.0'],
  [0.0238, '0.024'],
  [0.5, '0.50'],
  [0, '0.0'],
] as const)('%d events per transaction read %s', ([n, text]) => {
  expect(perTxnText(n)).toBe(text);
});
