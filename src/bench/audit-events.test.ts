import { describe, expect, test } from 'vitest';
import type { EventCounts } from '../plugins/logs/event-class.ts';
import { idleAdvice, summariseAuditEvents } from './audit-events.ts';
import type { MeasuredRun } from './blocks.ts';

const run = (onEvents: EventCounts | null, onTransactions = 1000): MeasuredRun =>
  ({ onEvents, onTransactions, onSeconds: 10 }) as MeasuredRun;

const noAdded = { connectionsPerS: 0, failedLoginsPerS: 0, ddlPerS: 0, dclPerS: 0 };

describe('summariseAuditEvents', () => {
  test('events per plugin-on transaction by class, and from the traffic accounts', () => {
    const counts = { byClass: { QUERY: 18_000, TABLE: 4_000 }, byUser: { app: 21_000, root: 1_000 } };
    const summary = summariseAuditEvents([run(counts), run(counts)], {}, { accounts: ['app'] });
    expect(summary).toEqual({
      perTxnByClass: { QUERY: 18, TABLE: 4 },
      fromTrafficPerTxn: 21,
      accounts: ['app'],
      idle: false,
      advice: null,
    });
  });

  test('no log auditbench parses: nothing to say', () => {
    expect(summariseAuditEvents([run(null)], {}, { accounts: ['app'] })).toBeUndefined();
  });

  test('a CONNECT-only configuration under persistent connections is idle, and told to add connections', () => {
    const summary = summariseAuditEvents(
      [run({ byClass: { QUERY: 1 }, byUser: { root: 1 } })],
      { server_audit_events: "'CONNECT'" },
      { accounts: ['auditbench_app'], added: noAdded },
    );
    expect(summary?.idle).toBe(true);
    expect(summary?.advice).toBe(
      'measured an idle plugin: this traffic has none of the events it logs; add traffic.added.connectionsPerS (new connections) or traffic.added.failedLoginsPerS',
    );
  });
});

describe('idleAdvice', () => {
  test('events of other accounts only: points at the user filter and names who was logged', () => {
    const advice = idleAdvice(
      { server_audit_incl_users: "'reporting'" },
      { byClass: { QUERY: 3 }, byUser: { root: 3 } },
      { accounts: ['auditbench_app'] },
    );
    expect(advice).toBe(
      "measured an idle plugin: this traffic has none of the events it logs; add an account the plugin audits: check server_audit_incl_users='reporting' against traffic.accounts [auditbench_app] (it logged only root)",
    );
  });

  test('DDL and DCL classes name their rates', () => {
    const advice = idleAdvice(
      { server_audit_events: "'QUERY_DDL,QUERY_DCL'" },
      { byClass: {}, byUser: {} },
      { accounts: ['app'], added: noAdded },
    );
    expect(advice).toContain('traffic.added.ddlPerS');
    expect(advice).toContain('traffic.added.dclPerS');
  });
});
