import type { AddedRates } from '../config/added-traffic.ts';
import { addCounts, type EventCounts, noEvents } from '../plugins/logs/event-class.ts';
import type { AuditEvents } from '../results/schema.ts';
import type { MeasuredRun } from './blocks.ts';

/** How every idle verdict's advice begins, whether no event was logged at all or none of the traffic's. */
export const IDLE_PREFIX = 'measured an idle plugin';

/** Whom the measured traffic logged in as, and what it added, to judge whether the plugin saw any of it. */
export interface TrafficSeen {
  /** Every account the measured traffic used: sysbench's and the added load's. */
  accounts: string[];
  /** The added load's rates (traffic.added), for the advice. */
  added?: AddedRates;
}

/**
 * Events per plugin-on transaction, by the log's class and from the traffic's accounts. Undefined when the plugin
 * writes no log auditbench parses (status counters) or no transaction ran in plugin-on time.
 */
export function summariseAuditEvents(
  runs: MeasuredRun[],
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
  const fromTraffic = trafficEvents(counts, accounts);
  // Without the traffic's accounts, any event in plugin-on time counts as the traffic's.
  const total = Object.values(counts.byClass).reduce((sum, n) => sum + n, 0);
  const fromTrafficPerTxn = (seen ? fromTraffic : total) / onTransactions;
  const idle = fromTrafficPerTxn === 0;
  return {
    perTxnByClass,
    fromTrafficPerTxn,
    accounts,
    idle,
    // Why, and what to change, is asked of the server afterwards (measureRun, src/bench/silence.ts).
    advice: idle
      ? `${IDLE_PREFIX}: no event of the traffic's accounts (${accounts.join(', ')}) was logged`
      : null,
    cause: null,
  };
}

/** Events the runs' logs held in one arm's time, summed; null when the plugin writes no log auditbench parses. */
export function armEvents(runs: readonly MeasuredRun[], arm: 'on' | 'off'): EventCounts | null {
  const logged = runs
    .map((r) => (arm === 'on' ? r.onEvents : r.offEvents))
    .filter((c): c is EventCounts => c != null);
  return logged.length > 0 ? logged.reduce(addCounts, noEvents()) : null;
}

/** Events of the traffic's accounts in counts (a log that names no user counts as the traffic's). */
export const trafficEvents = (counts: EventCounts, accounts: readonly string[]): number =>
  accounts.reduce((sum, a) => sum + (counts.byUser[a] ?? 0), counts.byUser[''] ?? 0);

/**
 * True when neither arm logged an event of the traffic's accounts (a gate's base and head both log): the comparison
 * priced two plugins that logged nothing. False when the plugin writes no log auditbench parses.
 */
export function neitherArmLogged(runs: readonly MeasuredRun[], accounts: readonly string[]): boolean {
  const arms = [armEvents(runs, 'on'), armEvents(runs, 'off')];
  if (arms.every((c) => c === null)) return false;
  return arms.every((c) => c === null || trafficEvents(c, accounts) === 0);
}
