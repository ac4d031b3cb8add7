import { describe, expect, test } from 'vitest';
import { mcafeeAudit } from '../profiles/mcafee-audit.ts';
import { serverAudit } from '../profiles/server-audit.ts';
import { explainSilence, type SilenceCause, type SilenceFacts, silenceFails } from './silence.ts';

const noAdded = { connectionsPerS: 0, failedLoginsPerS: 0, ddlPerS: 0, dclPerS: 0 };
// server_audit's status as MariaDB 10.11 reads it while it writes its log.
const writing = {
  Server_audit_active: 'ON',
  Server_audit_current_log: 'server_audit.log',
  Server_audit_last_error: '',
  Server_audit_writes_failed: '0',
};

const facts = (over: Partial<SilenceFacts>): SilenceFacts => ({
  status: writing,
  variables: {
    server_audit_logging: 'ON',
    server_audit_events: '',
    server_audit_file_path: 'server_audit.log',
  },
  errorLog: [],
  loggedByUser: {},
  traffic: { accounts: ['auditbench_app'], added: noAdded },
  ...over,
});

describe('explainSilence (server_audit)', () => {
  test.for<[string, Partial<SilenceFacts>, SilenceCause, string]>([
    [
      'the log could not be created: the status says so, with the path and the error',
      {
        status: {
          Server_audit_active: 'OFF',
          Server_audit_current_log: '',
          Server_audit_last_error: "Could not create file '/var/log/mysql/audit.log'.",
          Server_audit_writes_failed: '0',
        },
        variables: { server_audit_logging: 'OFF', server_audit_file_path: '/var/log/mysql/audit.log' },
      },
      'log-unwritable',
      "measured an idle plugin: SERVER_AUDIT could not write its log /var/log/mysql/audit.log (Server_audit_last_error: Could not create file '/var/log/mysql/audit.log'.; server_audit_logging reads OFF after it was switched on): make the folder of /var/log/mysql/audit.log exist and writable by the server's user, or set server_audit_file_path to a file it can write",
    ],
    [
      'no status row: the error log line says it',
      {
        status: {},
        variables: { server_audit_file_path: 'missing/audit.log' },
        errorLog: [
          '2026-12-06  6:01:02 0 [Note] Server socket created',
          "2026-12-06  6:01:09 5 [Warning] SERVER AUDIT plugin can't create file 'missing/audit.log'.",
        ],
      },
      'log-unwritable',
      "measured an idle plugin: SERVER_AUDIT could not write its log missing/audit.log (in the datadir) (error log: 2026-12-06  6:01:09 5 [Warning] SERVER AUDIT plugin can't create file 'missing/audit.log'.): make the folder of missing/audit.log exist and writable by the server's user, or set server_audit_file_path to a file it can write",
    ],
    [
      // As MariaDB 10.11.19 read in suites/traffic.suite.ts: the current-log status keeps the file it last opened.
      'a folder that does not exist, as read live: the file variable names the path, the status the error',
      {
        status: {
          ...writing,
          Server_audit_active: 'OFF',
          Server_audit_last_error: "Could not create file 'auditbench-no-such-dir/server_audit.log'.",
        },
        variables: {
          server_audit_logging: 'OFF',
          server_audit_file_path: 'auditbench-no-such-dir/server_audit.log',
        },
        errorLog: [
          "261206  6:07:00 server_audit: Could not create file 'auditbench-no-such-dir/server_audit.log'.",
        ],
      },
      'log-unwritable',
      "measured an idle plugin: SERVER_AUDIT could not write its log auditbench-no-such-dir/server_audit.log (in the datadir) (Server_audit_last_error: Could not create file 'auditbench-no-such-dir/server_audit.log'.; server_audit_logging reads OFF after it was switched on): make the folder of auditbench-no-such-dir/server_audit.log exist and writable by the server's user, or set server_audit_file_path to a file it can write",
    ],
    [
      'writes failed (a full disk): the counter says so, before any filter',
      {
        status: { ...writing, Server_audit_writes_failed: '7214' },
        variables: { server_audit_logging: 'ON', server_audit_incl_users: 'reporting' },
      },
      'log-unwritable',
      "measured an idle plugin: SERVER_AUDIT could not write its log server_audit.log (in the datadir) (Server_audit_writes_failed: 7214): make the folder of server_audit.log exist and writable by the server's user, or set server_audit_file_path to a file it can write",
    ],
    [
      'an include list without the traffic: names the filter and who was logged',
      {
        variables: { server_audit_logging: 'ON', server_audit_incl_users: 'reporting' },
        loggedByUser: { root: 3 },
      },
      'accounts-filtered',
      "measured an idle plugin: server_audit_incl_users=reporting audits none of the traffic's accounts (auditbench_app); it logged only root: add auditbench_app to server_audit_incl_users, or set traffic.accounts.application to an account it audits",
    ],
    [
      'an exclude list holding the traffic, set from an option file as a quoted setting',
      { variables: { server_audit_excl_users: "'auditbench_app'" } },
      'accounts-filtered',
      "measured an idle plugin: server_audit_excl_users=auditbench_app audits none of the traffic's accounts (auditbench_app): remove auditbench_app from server_audit_excl_users, or set traffic.accounts.application to an account it audits",
    ],
    [
      'CONNECT only under persistent connections, with root logged: no user filter, add connections',
      {
        variables: { server_audit_logging: 'ON', server_audit_events: 'CONNECT' },
        loggedByUser: { root: 2 },
      },
      'events-absent',
      'measured an idle plugin: server_audit_events=CONNECT logs only CONNECT, which sysbench\'s persistent connections never send: add `traffic: { added: { connectionsPerS: 10 } }` to the run in auditbench.config.ts (docs/traffic.md, "Added traffic")',
    ],
    [
      'CONNECT, DDL and DCL: one rate each',
      { variables: { server_audit_events: 'CONNECT,QUERY_DDL,QUERY_DCL' } },
      'events-absent',
      'measured an idle plugin: server_audit_events=CONNECT,QUERY_DDL,QUERY_DCL logs only CONNECT, QUERY_DDL, QUERY_DCL, which sysbench\'s persistent connections never send: add `traffic: { added: { connectionsPerS: 10, ddlPerS: 10, dclPerS: 10 } }` to the run in auditbench.config.ts (docs/traffic.md, "Added traffic")',
    ],
    [
      'CONNECT with connections added and still nothing: no cause to name',
      {
        variables: { server_audit_events: 'CONNECT' },
        traffic: { accounts: ['auditbench_app'], added: { ...noAdded, connectionsPerS: 10 } },
      },
      'unknown',
      "measured an idle plugin: SERVER_AUDIT logged none of the traffic's accounts (auditbench_app): check its settings against the traffic, or add traffic.added (connections, failed logins, DDL, DCL) or a traffic.script with the statements it logs",
    ],
    [
      'QUERY among the classes: sysbench sends queries, so the events are not why',
      { variables: { server_audit_events: 'CONNECT,QUERY' }, loggedByUser: { root: 1 } },
      'unknown',
      "measured an idle plugin: SERVER_AUDIT logged none of the traffic's accounts (auditbench_app) (it logged only root): check its settings against the traffic, or add traffic.added (connections, failed logins, DDL, DCL) or a traffic.script with the statements it logs",
    ],
  ])('%s', ([, over, cause, advice]) => {
    expect(explainSilence(serverAudit, facts(over))).toMatchObject({ cause, advice });
  });

  test('the order of evidence: an unwritable log wins over a filter and over the events', () => {
    const silence = explainSilence(
      serverAudit,
      facts({
        status: { ...writing, Server_audit_active: 'OFF', Server_audit_last_error: 'Could not create file' },
        variables: { server_audit_events: 'CONNECT', server_audit_incl_users: 'reporting' },
      }),
    );
    expect(silence.cause).toBe('log-unwritable');
  });
});

test('McAfee AUDIT: only the error log says its handler is off (audit_json_file reads ON)', () => {
  const silence = explainSilence(mcafeeAudit, {
    status: {},
    variables: { audit_json_file: 'ON', audit_json_log_file: '/nowhere/mysql-audit.json' },
    errorLog: [
      '2026-12-06 06:01:09 [error] unable to open file /nowhere/mysql-audit.json: No such file or directory. audit file handler disabled!!',
    ],
    loggedByUser: {},
    traffic: { accounts: ['auditbench_app'] },
  });
  expect(silence.cause).toBe('log-unwritable');
  expect(silence.advice).toContain('could not write its log /nowhere/mysql-audit.json (error log: ');
});

test.for<[SilenceCause | null, 'fail' | 'pass' | undefined, boolean]>([
  ['log-unwritable', 'pass', true],
  ['log-unwritable', undefined, true],
  ['events-absent', 'pass', false],
  ['events-absent', 'fail', true],
  [null, undefined, true],
])('silenceFails(%s, idle: %s) is %s', ([cause, idle, fails]) => {
  expect(silenceFails(cause, idle)).toBe(fails);
});
