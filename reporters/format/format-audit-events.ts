import type { AuditEvents, PluginResult } from '../../src/results/schema.ts';
import { fixed } from './format-numbers.ts';

/**
 * Events per transaction: one decimal from 1 up; below that two significant digits, so 20 new connections a second
 * beside 840 transactions (0.024 CONNECT) does not read as 0.0. Zero stays 0.0.
 */
export const perTxnText = (n: number): string => (n === 0 || Math.abs(n) >= 1 ? fixed(n) : n.toPrecision(2));

/** Every class's events per transaction, summed. */
export const eventsPerTxn = (events: AuditEvents): number =>
  Object.values(events.perTxnByClass).reduce((sum, n) => sum + n, 0);

/** `QUERY 18.0, TABLE 4.0`: the classes that logged anything, most first. */
export function classesText(events: AuditEvents): string {
  const logged = Object.entries(events.perTxnByClass).filter(([, n]) => n > 0);
  if (logged.length === 0) return 'none';
  return logged
    .sort(([a, x], [b, y]) => y - x || a.localeCompare(b))
    .map(([name, n]) => `${name} ${perTxnText(n)}`)
    .join(', ');
}

/** A table cell: the total per transaction and its classes, or '–' for a result measured before the field. */
export function auditEventsCell(r: PluginResult): string {
  const events = r.measurement?.auditEvents;
  if (!events) return '–';
  return events.idle
    ? `${perTxnText(eventsPerTxn(events))} (idle)`
    : `${perTxnText(eventsPerTxn(events))} (${classesText(events)})`;
}

/**
 * What the configuration logged of the measured traffic, in a sentence; an idle plugin's line is its advice. Null
 * for a result measured before the field, and for advice the verdict's reason already gives.
 */
export function auditEventsLine(r: PluginResult): string | null {
  const events = r.measurement?.auditEvents;
  if (!events || (events.idle && events.advice !== null && events.advice === r.measurement?.reason))
    return null;
  const accounts = events.accounts.length > 0 ? events.accounts.join(', ') : 'none recorded';
  if (events.idle) {
    return (
      events.advice ?? `measured an idle plugin: no event of the traffic's accounts (${accounts}) was logged`
    );
  }
  const bytes = r.logBytesPerTxn === null ? '' : `, ${fixed(r.logBytesPerTxn, 0)} log bytes`;
  return `logged ${perTxnText(eventsPerTxn(events))} audit events per transaction (${classesText(events)})${bytes}; ${perTxnText(events.fromTrafficPerTxn)} of them from the traffic's accounts (${accounts})`;
}
