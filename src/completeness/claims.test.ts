import { expect, test } from 'vitest';
import { generalLog } from '../../fixtures/plugins/general-log.ts';
import { nullAudit } from '../../fixtures/plugins/null-audit.ts';
import { serverAuditClaims } from '../../fixtures/plugins/server-audit.ts';
import { sqlErrorLog } from '../../fixtures/plugins/sql-error-log.ts';
import { completenessSetupFor } from './claims.ts';

test.for([
  [
    "''",
    {
      read: 'logged',
      write: 'logged',
      failed: 'logged',
      ddl: 'logged',
      connect: 'logged',
      failedLogin: 'logged',
    },
  ],
  [
    "'CONNECT'",
    {
      read: 'absent',
      write: 'absent',
      failed: 'absent',
      ddl: 'absent',
      connect: 'logged',
      failedLogin: 'logged',
    },
  ],
  [
    "'query_ddl,connect'",
    {
      read: 'absent',
      write: 'absent',
      failed: 'absent',
      ddl: 'logged',
      connect: 'logged',
      failedLogin: 'logged',
    },
  ],
  [
    'QUERY_DML_NO_SELECT',
    {
      read: 'absent',
      write: 'logged',
      failed: 'absent',
      ddl: 'absent',
      connect: 'absent',
      failedLogin: 'absent',
    },
  ],
] as const)('server_audit_events=%s', ([events, claims]) => {
  expect(serverAuditClaims(events)).toEqual(claims);
});

test('SQL_ERROR_LOG claims failures only; the general log every kind', () => {
  expect(completenessSetupFor(sqlErrorLog)?.claims(sqlErrorLog)).toEqual({
    read: 'absent',
    write: 'absent',
    failed: 'logged',
    ddl: 'absent',
    connect: 'absent',
    failedLogin: 'logged',
  });
  expect(Object.values(completenessSetupFor(generalLog)?.claims(generalLog) ?? {})).toEqual(
    Array(6).fill('logged'),
  );
});

test('a plugin that writes no file has no completeness check', () => {
  expect(completenessSetupFor(nullAudit)).toBeNull();
});
