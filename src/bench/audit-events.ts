import { addCounts, type EventCounts, noEvents } from '../plugins/logs/event-class.ts';
import type { AuditEvents } from '../results/schema.ts';
import type { MeasuredRun } from './blocks.ts';

/** Whom the measured traffic logged in as, and what it added, to judge whether the plugin saw any of it. */
export interface TrafficSeen {
  /** Every account the measured traffic used: sysbench's and the added load's. */
  accounts: string[];
  /** The added load's rates (traffic.added), for the advice. */
  added?: { connectionsPerS: number; failedLoginsPerS: number; ddlPerS: number; dclPerS: number };
}

const IDLE = 'measured an idle plugin: this traffic has none of the events it logs';

/** Splits a comma-separated plugin setting as applied (an SQL literal, e.g. 'CONNECT,QUERY_DDL') into its items. */
const listOf = (value: string | undefined): string[] =>
  (value ?? '')
    .replace(/^'(.*)'$/, '$1')
    .split(',')
    .map((s) => s.trim())
    .filter((s) => s !== '');

/**
 * What to add so that the traffic holds what the configuration logs: named from the plugin's event filter when it
 * has one (server_audit_events), else from the user filter that left the traffic's accounts out.
 */
export function idleAdvice(settings: Record<string, string>, counts: EventCounts, seen: TrafficSeen): string {
  const wanted = listOf(settings.server_audit_events).map((e) => e.toUpperCase());
  const add: string[] = [];
  const added = seen.added;
  if (wanted.includes('CONNECT') && !added?.connectionsPerS)
    add.push('traffic.added.connectionsPerS (new connections) or traffic.added.failedLoginsPerS');
  if (wanted.includes('QUERY_DDL') && !added?.ddlPerS) add.push('traffic.added.ddlPerS (CREATE/DROP TABLE)');
  if (wanted.includes('QUERY_DCL') && !added?.dclPerS) add.push('traffic.added.dclPerS (GRANT/REVOKE)');
  const others = Object.keys(counts.byUser).filter((u) => !seen.accounts.includes(u));
  const filters = ['server_audit_incl_users', 'server_audit_excl_users', 'audit_whitelist_users']
    .filter((k) => settings[k] !== undefined)
    .map((k) => `${k}=${settings[k]}`);
  // Another account's events (the harness's own switch statements as root) point at a user filter only when one is set.
  if (filters.length > 0 || (add.length === 0 && others.length > 0)) {
    const who = others.length > 0 ? ` (it logged only ${others.join(', ')})` : '';
    const filter = filters.length > 0 ? ` ${filters.join(', ')}` : ' the user filter';
    add.push(
      `an account the plugin audits: check${filter} against traffic.accounts [${seen.accounts.join(', ')}]${who}`,
    );
  }
  if (add.length === 0)
    add.push(
      'traffic.added (connections, failed logins, DDL, DCL) or a traffic.script with the statements it logs',
    );
  return `${IDLE}; add ${add.join('; ')}`;
}

/**
 * Events per plugin-on transaction, by the log's class and from the traffic's accounts. Undefined when the plugin
 * writes no log auditbench parses (status counters) or no transaction ran in plugin-on time.
 */
export function summariseAuditEvents(
  runs: MeasuredRun[],
  settings: Record<string, string>,
  seen: TrafficSeen | undefined,
): AuditEvents | undefined {
  const logged = runs.map((r) => r.onEvents).filter((c): c is EventCounts => c != null);
  if (logged.length === 0) return undefined;
  const counts = logged.reduce(addCounts, noEvents());
  const onTransactions = runs.reduce((sum, r) => sum + r.onTransactions, 0);
  if (onTransactions <= 0) return undefined;
  const perTxnByClass = Object.fromEntries(
    Object.entries(counts.byClass)
      .sort(([a], [b]) => (a < b ? -1 : 1))
      .map(([cls, n]) => [cls, n / onTransactions]),
  );
  const accounts = seen?.accounts ?? [];
  // A log that names no user on an event (the general log's Query lines) cannot tell whose it is: it counts as the
  // traffic's, so only a log that names other accounts can call a run idle.
  const unnamed = counts.byUser[''] ?? 0;
  const fromTraffic = accounts.reduce((sum, a) => sum + (counts.byUser[a] ?? 0), unnamed);
  // Without the traffic's accounts, any event in plugin-on time counts as the traffic's.
  const total = Object.values(counts.byClass).reduce((sum, n) => sum + n, 0);
  const fromTrafficPerTxn = (seen ? fromTraffic : total) / onTransactions;
  const idle = fromTrafficPerTxn === 0;
  return {
    perTxnByClass,
    fromTrafficPerTxn,
    accounts,
    idle,
    advice: idle ? idleAdvice(settings, counts, seen ?? { accounts }) : null,
  };
}
