import { expect, test } from 'vitest';
import { generalLog } from '../profiles/general-log.ts';
import { nullAudit } from '../profiles/null-audit.ts';
import { serverAudit, serverAuditClaims } from '../profiles/server-audit.ts';
import { sqlErrorLog } from '../profiles/sql-error-log.ts';
import { claimsUnderUserFilter, completenessSetupFor } from './claims.ts';

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

const everything = {
  read: 'logged',
  write: 'logged',
  failed: 'logged',
  ddl: 'logged',
  connect: 'logged',
  failedLogin: 'logged',
} as const;

test('a user filter that lets only the application in claims every marker kind absent', () => {
  const filter = serverAudit.userFilter?.({ server_audit_incl_users: 'app' }) ?? null;
  expect(filter).not.toBeNull();
  expect(claimsUnderUserFilter(everything, (user) => filter?.audits(user) ?? true)).toEqual({
    read: 'absent',
    write: 'absent',
    failed: 'absent',
    ddl: 'absent',
    connect: 'absent',
    failedLogin: 'absent',
  });
});

test('an exclude list that names other accounts, or no filter, leaves the claims as they are', () => {
  const filter = serverAudit.userFilter?.({ server_audit_excl_users: 'app,reporting' }) ?? null;
  expect(claimsUnderUserFilter(everything, (user) => filter?.audits(user) ?? true)).toEqual(everything);
  expect(claimsUnderUserFilter(everything, null)).toEqual(everything);
});

test('a kind claimed absent or unchecked stays so whatever the filter', () => {
  const claims = { ...everything, read: 'absent', ddl: 'unchecked' } as const;
  expect(claimsUnderUserFilter(claims, () => true)).toEqual(claims);
  expect(claimsUnderUserFilter(claims, () => false).ddl).toBe('unchecked');
});
