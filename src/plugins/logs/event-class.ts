import type { AuditEvent } from '../audit-event.ts';
import type { LogFormat } from './index.ts';

// server_audit's own classes (server_audit_events): a connection record, a statement, or a table access.
const SERVER_AUDIT_CLASS: Record<string, string> = {
  CONNECT: 'CONNECT',
  DISCONNECT: 'CONNECT',
  FAILED_CONNECT: 'CONNECT',
  CHANGEUSER: 'CONNECT',
  QUERY: 'QUERY',
  READ: 'TABLE',
  WRITE: 'TABLE',
  CREATE: 'TABLE',
  DROP: 'TABLE',
  ALTER: 'TABLE',
  RENAME: 'TABLE',
};

/**
 * The class an event is counted under in results, in the log's own terms: server_audit's CONNECT/QUERY/TABLE,
 * McAfee's `cmd` (select, insert, Connect…), the general log's command, SQL_ERROR_LOG's level, and for the other
 * formats the operation they record.
 */
export function eventClass(format: LogFormat, event: AuditEvent): string {
  if (format === 'server_audit') return SERVER_AUDIT_CLASS[event.operation] ?? event.operation;
  if (format === 'mcafee_json') return event.command ?? event.operation;
  return event.operation;
}

/** Events counted by class and by user, the two ways a measurement reports what its configuration logged. */
export interface EventCounts {
  byClass: Record<string, number>;
  byUser: Record<string, number>;
}

export const noEvents = (): EventCounts => ({ byClass: {}, byUser: {} });

export function countEvents(format: LogFormat, events: AuditEvent[], into = noEvents()): EventCounts {
  for (const event of events) {
    const cls = eventClass(format, event);
    into.byClass[cls] = (into.byClass[cls] ?? 0) + 1;
    into.byUser[event.user] = (into.byUser[event.user] ?? 0) + 1;
  }
  return into;
}

export function addCounts(a: EventCounts, b: EventCounts): EventCounts {
  const sum = noEvents();
  for (const c of [a, b]) {
    for (const [k, v] of Object.entries(c.byClass)) sum.byClass[k] = (sum.byClass[k] ?? 0) + v;
    for (const [k, v] of Object.entries(c.byUser)) sum.byUser[k] = (sum.byUser[k] ?? 0) + v;
  }
  return sum;
}
