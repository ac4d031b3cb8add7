import { describe, expect, test } from 'vitest';
import { generalLog } from '../../../fixtures/plugins/general-log.ts';
import { nullAudit } from '../../../fixtures/plugins/null-audit.ts';
import type { LifecycleCheck } from '../../results/lifecycle-check.ts';
import { createFakeServer, type FakeCall, type FakeReply, type FakeServer } from '../fake-server.ts';
import { countDuring } from './counters.ts';
import { type LifecycleContext, lifecycleContext, lifecycleSteps } from './index.ts';

/** Events one statement sends a plugin subscribed to everything, and how many a SHOW STATUS sends before it reads. */
const EVENTS_PER_STATEMENT = 9;
const EVENTS_BEFORE_READ = 4;

/**
 * MySQL with adt_null.so, answering as plugin/audit_null/audit_null.cc and sql_plugin.cc do: INSTALL of a loaded
 * plugin is 1125, UNINSTALL of a missing one 1305, UNINSTALL answers 1620 and unloads; counters start at 0 on load
 * and exist only while it is loaded; INSTALL persists across restarts.
 */
function nullAuditServer(): FakeServer {
  let loaded = false;
  let called = 0;
  let errors = 0;
  const reply = ({ sql }: FakeCall): FakeReply => {
    const counting = loaded;
    if (counting && !/^SHOW GLOBAL STATUS/.test(sql)) called += EVENTS_PER_STATEMENT;
    if (/^INSTALL PLUGIN NULL_AUDIT/.test(sql)) {
      if (loaded) return { error: { errno: 1125, message: "Function 'NULL_AUDIT' already exists" } };
      [loaded, called, errors] = [true, 0, 0];
      return {};
    }
    if (/^UNINSTALL PLUGIN NULL_AUDIT/.test(sql)) {
      if (!loaded) return { error: { errno: 1305, message: 'PLUGIN NULL_AUDIT does not exist' } };
      loaded = false;
      return { warnings: [{ code: 1620, message: 'Plugin is busy and will be uninstalled on shutdown' }] };
    }
    if (/^SHOW GLOBAL STATUS/.test(sql)) {
      if (!loaded) return {};
      const rows = [
        { Variable_name: 'Audit_null_called', Value: String(called + EVENTS_BEFORE_READ) },
        { Variable_name: 'Audit_null_general_error', Value: String(errors) },
      ];
      called += EVENTS_PER_STATEMENT;
      return { rows };
    }
    if (/PLUGIN_NAME = 'NULL_AUDIT'/.test(sql)) return { rows: loaded ? [{ status: 'ACTIVE' }] : [] };
    if (/^SHOW GLOBAL VARIABLES/.test(sql) && loaded) {
      return { rows: [{ Variable_name: 'null_audit_abort_value', Value: '1' }] };
    }
    if (/^SELEC |_missing/.test(sql)) {
      if (counting) errors += 1;
      return { error: { errno: /^SELEC /.test(sql) ? 1064 : 1146, message: 'refused' } };
    }
    return {};
  };
  return createFakeServer({
    info: { flavor: 'mysql', version: '9.7.0' },
    rules: [{ match: /[\s\S]*/, reply }],
    onStart: () => {
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
  test('every lifecycle check matches the profile', async () => {
    const results = await runAll(lifecycleContext(nullAuditServer(), nullAudit));
    expect(results.filter((r) => !r.ok)).toEqual([]);
    expect(results.map((r) => [r.check, r.observed === 'not applicable'])).toEqual([
      ['install', false],
      ['logs-query', false],
      ['failed-queries', true],
      ['masks-password', true],
      ['disabled-silent', false],
      ['rotation', true],
      ['log-parses', true],
      ['restart', false],
      ['uninstall', false],
    ]);
  });

  test('a query counts as logged by the events it adds, net of reading the counters', async () => {
    const server = nullAuditServer();
    await server.query("INSTALL PLUGIN NULL_AUDIT SONAME 'adt_null.so'");
    if (nullAudit.log.file !== null) throw new Error('NULL_AUDIT is expected to write no file');
    const counted = await countDuring(server, nullAudit.log, () => server.query('SELECT 1'));
    expect(counted).toMatchObject({ counter: 'Audit_null_called', counted: 9, perRead: 9 });
    const idle = await countDuring(server, nullAudit.log, async () => {});
    expect(idle.counted).toBe(0);
  });

  test('the failed-queries check records what the plugin was sent, though there is no code to compare', async () => {
    const context = lifecycleContext(nullAuditServer(), nullAudit);
    for (const step of lifecycleSteps.beforeMeasure.slice(0, 2)) await step.run(context);
    const failed = await lifecycleSteps.beforeMeasure[2]?.run(context);
    expect(failed?.details).toMatchObject({
      serverAnswered: [1064, 1146],
      counted: { grew: { Audit_null_general_error: 2 } },
    });
  });

  test('enable reinstalls, so an INSTALL that meets a loaded copy fails loudly instead of doing nothing', () => {
    expect(nullAudit.enable.map((s) => (s.kind === 'sql' ? [s.sql, s.allowErrors ?? []] : s.kind))).toEqual([
      ['UNINSTALL PLUGIN NULL_AUDIT', [1305]],
      ["INSTALL PLUGIN NULL_AUDIT SONAME 'adt_null.so'", []],
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
