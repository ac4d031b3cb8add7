import { describe, expect, test } from 'vitest';
import type { EventCounts } from '../plugins/logs/event-class.ts';
import { neitherArmLogged, summariseAuditEvents } from './audit-events.ts';
import type { MeasuredRun } from './blocks.ts';

const run = (onEvents: EventCounts | null, onTransactions = 1000): MeasuredRun =>
  ({ onEvents, onTransactions, onSeconds: 10 }) as MeasuredRun;

const noAdded = { connectionsPerS: 0, failedLoginsPerS: 0, ddlPerS: 0, dclPerS: 0 };

describe('summariseAuditEvents', () => {
  test('events per plugin-on transaction by class, and from the traffic accounts', () => {
    const counts = { byClass: { QUERY: 18_000, TABLE: 4_000 }, byUser: { app: 21_000, root: 1_000 } };
    const summary = summariseAuditEvents([run(counts), run(counts)], { accounts: ['app'] });
    expect(summary).toEqual({
      perTxnByClass: { QUERY: 18, TABLE: 4 },
      fromTrafficPerTxn: 21,
      accounts: ['app'],
      idle: false,
      advice: null,
      cause: null,
    });
  });

  test('no log auditbench parses: nothing to say', () => {
    expect(summariseAuditEvents([run(null)], { accounts: ['app'] })).toBeUndefined();
  });

  // Why, and what to add, is explainSilence's (silence.test.ts), asked of the server after measuring.
  test('only other accounts logged: idle, with a line naming the traffic accounts until the server is asked', () => {
    const summary = summariseAuditEvents([run({ byClass: { QUERY: 1 }, byUser: { root: 1 } })], {
      accounts: ['auditbench_app'],
      added: noAdded,
    });
    expect(summary?.idle).toBe(true);
    expect(summary?.advice).toBe(
      "measured an idle plugin: no event of the traffic's accounts (auditbench_app) was logged",
    );
  });
});

describe('neitherArmLogged', () => {
  const arms = (on: EventCounts | null, off: EventCounts | null) =>
    [
      { onEvents: on, offEvents: null },
      { onEvents: null, offEvents: off },
    ] as MeasuredRun[];
  const none = { byClass: {}, byUser: {} };
  const rootOnly = { byClass: { QUERY: 2 }, byUser: { root: 2 } };
  const app = { byClass: { QUERY: 9 }, byUser: { app: 9 } };
  test.for([
    ['no log in either arm (an unwritable file)', arms(none, none), true],
    ["only the harness's own statements", arms(rootOnly, none), true],
    ['the head logged the traffic', arms(app, none), false],
    ['the base logged the traffic', arms(none, app), false],
    ['a plugin without a parsed log says nothing', arms(null, null), false],
  ] as const)('%s: %s', ([, runs, silent]) => {
    expect(neitherArmLogged(runs, ['app'])).toBe(silent);
  });
});
