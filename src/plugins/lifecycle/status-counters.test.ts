import { describe, expect, test } from 'vitest';
import {
  createFakeServer,
  type FakeCall,
  type FakeReply,
  type FakeServer,
} from '../../../test/support/fake-server.ts';
import { generalLog } from '../../profiles/general-log.ts';
import { nullAudit } from '../../profiles/null-audit.ts';
import type { LifecycleCheck } from '../../results/lifecycle-check.ts';
import { runSteps } from '../steps.ts';
import { countDuring } from './counters.ts';
import { type LifecycleContext, lifecycleContext, lifecycleSteps } from './index.ts';

/** Events one statement sends a plugin subscribed to everything, and how many a SHOW STATUS sends before it reads. */
const EVENTS_PER_STATEMENT = 9;
const EVENTS_BEFORE_READ = 4;

/**
 * MySQL with adt_null.so, answering as audit_null.cc, sql_plugin.cc and MySQL 9.7.4 did: INSTALL of a listed plugin
 * is 1125, UNINSTALL of a missing one 1305, UNINSTALL answers 1620; counters start at 0 on load and exist while it is
 * loaded; INSTALL persists across restarts (mysql.plugin). With `held`, UNINSTALL leaves a DELETED copy that still
 * counts until the restart, as 9.7.4 does while a session that used it is open; otherwise it is gone at once.
 */
function nullAuditServer(options: { held?: boolean } = {}): FakeServer {
  let state: 'absent' | 'ACTIVE' | 'DELETED' = 'absent';
  let registered = false;
  let called = 0;
  let errors = 0;
  const reply = ({ sql }: FakeCall): FakeReply => {
    const counting = state !== 'absent';
    if (counting && !/^SHOW GLOBAL STATUS/.test(sql)) called += EVENTS_PER_STATEMENT;
    if (/^INSTALL PLUGIN NULL_AUDIT/.test(sql)) {
      if (state !== 'absent')
        return { error: { errno: 1125, message: "Function 'NULL_AUDIT' already exists" } };
      [state, registered, called, errors] = ['ACTIVE', true, 0, 0];
      return {};
    }
    if (/^UNINSTALL PLUGIN NULL_AUDIT/.test(sql)) {
      if (state !== 'ACTIVE') return { error: { errno: 1305, message: 'PLUGIN NULL_AUDIT does not exist' } };
      [state, registered] = [options.held ? 'DELETED' : 'absent', false];
      return { warnings: [{ code: 1620, message: 'Plugin is busy and will be uninstalled on shutdown' }] };
    }
    if (/^SHOW GLOBAL STATUS/.test(sql)) {
      if (!counting) return {};
      const rows = [
        { Variable_name: 'Audit_null_called', Value: String(called + EVENTS_BEFORE_READ) },
        { Variable_name: 'Audit_null_general_error', Value: String(errors) },
      ];
      called += EVENTS_PER_STATEMENT;
      return { rows };
    }
    if (/PLUGIN_NAME = 'NULL_AUDIT'/.test(sql)) return { rows: counting ? [{ status: state }] : [] };
    if (/^SHOW GLOBAL VARIABLES/.test(sql) && counting) {
      return { rows: [{ Variable_name: 'null_audit_abort_value', Value: '1' }] };
    }
    if (/^SELEC |_missing/.test(sql)) {
      if (counting) errors += 1;
      return { error: { errno: /^SELEC /.test(sql) ? 1064 : 1146, message: 'refused' } };
    }
    return {};
  };
  return createFakeServer({
    info: { flavor: 'mysql', version: '9.7.4' },
    rules: [{ match: /[\s\S]*/, reply }],
    onStart: () => {
      state = registered ? 'ACTIVE' : 'absent';
      [called, errors] = [0, 0];
      return undefined;
    },
  });
}

async function runAll(context: LifecycleContext): Promise<LifecycleCheck[]> {
  const results: LifecycleCheck[] = [];
  for (const step of [...lifecycleSteps.beforeMeasure, ...lifecycleSteps.afterMeasure]) {
    results.push(await step.run(context));
  }
  return results;
}

describe('NULL_AUDIT: no file, counters only', () => {
  test('every check before the measurement matches the profile; five of them do not apply', async () => {
    const context = lifecycleContext(nullAuditServer(), nullAudit);
    const results: LifecycleCheck[] = [];
    for (const step of lifecycleSteps.beforeMeasure) results.push(await step.run(context));
    expect(results.filter((r) => !r.ok)).toEqual([]);
    expect(results.filter((r) => r.observed === 'not applicable').map((r) => r.check)).toEqual([
      'syslog-header',
      'failed-queries',
      'masks-password',
      'rotation',
      'log-parses',
      'log-integrity',
    ]);
  });

  test.for([
    [false, { warningCodes: [1620], needsRestart: false, stillLogs: false, goneAfterRestart: true }],
    [true, { warningCodes: [1620], needsRestart: true, stillLogs: true, goneAfterRestart: true }],
  ] as const)('uninstall, a DELETED copy kept: %s', async ([held, observed]) => {
    const results = await runAll(lifecycleContext(nullAuditServer({ held }), nullAudit));
    const uninstall = results.at(-1);
    expect(uninstall?.observed).toMatchObject(observed);
    // The profile expects the copy gone; a held one (seen once on 9.7.4) fails the check, with the evidence.
    expect(uninstall?.ok).toBe(!held);
  });

  // An expectation an option in force set (server_audit's under log_bin) names that option when the server answers
  // otherwise; without one, the line says no option in force is known to defer it.
  test.for([
    [
      false,
      'log_bin=b',
      /gone from information_schema\.PLUGINS right after UNINSTALL.*: log_bin=b: observed/,
    ],
    [
      true,
      undefined,
      /still in information_schema\.PLUGINS \(DELETED\).*: no option in force is known to defer it/,
    ],
  ] as const)('uninstall held %s, deferred by %s: one line names why', async ([held, deferredBy, line]) => {
    // The held copy still counts: expected so, the deferral is the one mismatch.
    const uninstall = {
      ...nullAudit.expected.uninstall,
      stillLogs: held,
      ...(deferredBy === undefined ? {} : { needsRestart: true, deferredBy: `${deferredBy}: observed` }),
    };
    const profile = { ...nullAudit, expected: { ...nullAudit.expected, uninstall } };
    const context = lifecycleContext(nullAuditServer({ held }), profile);
    const check = await lifecycleSteps.afterMeasure[0]?.run(context);
    expect(check?.ok).toBe(false);
    expect((check?.details as { failure?: string } | undefined)?.failure).toMatch(line);
  });

  test('a query counts as logged by the events it adds, net of reading the counters', async () => {
    const server = nullAuditServer();
    await runSteps(server, nullAudit.install, 'Installing');
    if (nullAudit.log.file !== null) throw new Error('NULL_AUDIT is expected to write no file');
    const counted = await countDuring(server, nullAudit.log, () => server.query('SELECT 1'));
    expect(counted).toMatchObject({ counter: 'Audit_null_called', counted: 9, perRead: 9 });
    const idle = await countDuring(server, nullAudit.log, async () => {});
    expect(idle.counted).toBe(0);
  });

  test('the failed-queries check records what the plugin was sent, though there is no code to compare', async () => {
    const context = lifecycleContext(nullAuditServer(), nullAudit);
    const at = lifecycleSteps.beforeMeasure.findIndex((step) => step.id === 'failed-queries');
    for (const step of lifecycleSteps.beforeMeasure.slice(0, at)) await step.run(context);
    const failed = await lifecycleSteps.beforeMeasure[at]?.run(context);
    expect(failed?.details).toMatchObject({
      serverAnswered: [1064, 1146],
      counted: { grew: { Audit_null_general_error: 2 } },
    });
  });

  test('disable restarts, so a DELETED copy never outlives it and the next enable installs afresh', async () => {
    const server = nullAuditServer({ held: true });
    await runSteps(server, nullAudit.install, 'Installing');
    await server.query('UNINSTALL PLUGIN NULL_AUDIT');
    // Without the restart the copy is still there: INSTALL is refused.
    await expect(server.query("INSTALL PLUGIN NULL_AUDIT SONAME 'adt_null.so'")).rejects.toThrow(
      'ERROR 1125',
    );
    await server.restart();
    await runSteps(server, nullAudit.enable, 'Enabling');
    await runSteps(server, nullAudit.disable, 'Disabling');
    await runSteps(server, nullAudit.enable, 'Enabling');
    expect(server.lines().slice(-4)).toEqual([
      "SQL INSTALL PLUGIN NULL_AUDIT SONAME 'adt_null.so'",
      'SQL UNINSTALL PLUGIN NULL_AUDIT',
      'restart',
      "SQL INSTALL PLUGIN NULL_AUDIT SONAME 'adt_null.so'",
    ]);
  });
});

describe('general query log: a built-in', () => {
  const builtIn = (flavor: 'mariadb' | 'mysql') =>
    createFakeServer({
      info: { flavor },
      rules: [
        {
          match: "SHOW GLOBAL VARIABLES LIKE 'general\\_log'",
          reply: { rows: [{ Variable_name: 'general_log', Value: 'OFF' }] },
        },
      ],
    });

  test('install finds it present without INSTALL; uninstall does not apply', async () => {
    const server = builtIn('mariadb');
    const context = lifecycleContext(server, generalLog);
    const [install] = lifecycleSteps.beforeMeasure;
    const [uninstall] = lifecycleSteps.afterMeasure;
    expect(await install?.run(context)).toMatchObject({
      expected: 'BUILT-IN',
      observed: 'BUILT-IN',
      ok: true,
    });
    expect(await uninstall?.run(context)).toMatchObject({ observed: 'not applicable', ok: true });
    expect(server.lines().some((l) => /INSTALL/.test(l))).toBe(false);
  });

  test('the flavor picks the password expectation: MySQL rewrites, MariaDB does not', () => {
    expect(lifecycleContext(builtIn('mysql'), generalLog).expected.masksPasswords).toBe(true);
    expect(lifecycleContext(builtIn('mariadb'), generalLog).expected.masksPasswords).toBe(false);
  });
});
