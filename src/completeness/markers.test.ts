import { describe, expect, test } from 'vitest';
import { parseGeneralLog } from '../plugins/logs/general-log.ts';
import { parseServerAuditLog } from '../plugins/logs/server-audit-log.ts';
import { parseSqlErrlog } from '../plugins/logs/sql-errlog.ts';
import { findMarkers, markerStatement, newTag, statementMarker } from './markers.ts';

const names = { tag: 'k3x9', schema: 'auditbench_completeness' };
const ids = (found: ReturnType<typeof findMarkers>) =>
  Object.fromEntries(Object.entries(found).map(([kind, map]) => [kind, Object.fromEntries(map)]));

describe('markerStatement', () => {
  test.for([
    ['read', 'SELECT id FROM `auditbench_completeness`.markers WHERE id = 7 /* ab:k3x9:read:7 */'],
    [
      'write',
      "INSERT INTO `auditbench_completeness`.markers (kind, n) VALUES ('write', 7) /* ab:k3x9:write:7 */",
    ],
    ['failed', 'SELECT id FROM `auditbench_completeness`.missing_k3x9 WHERE id = 7 /* ab:k3x9:failed:7 */'],
    ['ddl', "ALTER TABLE `auditbench_completeness`.ddl_target COMMENT = '7' /* ab:k3x9:ddl:7 */"],
  ] as const)('%s', ([kind, sql]) => {
    expect(markerStatement(names, kind, 7)).toBe(sql);
  });

  test('refuses a tag that could break the statement or the marker pattern', () => {
    expect(() => statementMarker("x'; DROP", 'read', 1)).toThrow(/lower-case letters or digits, got/);
  });

  test('newTag gives eight letters or digits', () => {
    expect(newTag(() => 0.5)).toMatch(/^[a-z0-9]{8}$/);
  });
});

// Records written the way each plugin writes them (formats as in fixtures/logs), holding this tag's markers.
const serverAudit = [
  "20261201 00:10:01,vm,root,127.0.0.1,12,40,QUERY,,'SELECT id FROM `auditbench_completeness`.markers WHERE id = 1 /* ab:k3x9:read:1 */',0",
  '20261201 00:10:01,vm,root,127.0.0.1,12,40,READ,auditbench_completeness,markers,',
  "20261201 00:10:01,vm,root,127.0.0.1,12,41,QUERY,,'SELECT id FROM `auditbench_completeness`.missing_k3x9 WHERE id = 1 /* ab:k3x9:failed:1 */',1146",
  "20261201 00:10:01,vm,root,127.0.0.1,13,42,QUERY,,'SELECT id FROM `auditbench_completeness`.markers WHERE id = 1 /* ab:k3x9:read:1 */',0",
  '20261201 00:10:01,vm,abc_k3x9,127.0.0.1,14,0,CONNECT,,,0',
  '20261201 00:10:01,vm,abc_k3x9,127.0.0.1,14,0,DISCONNECT,,,0',
  '20261201 00:10:01,vm,abf_k3x9_3,127.0.0.1,15,0,FAILED_CONNECT,,,1045',
  '20261201 00:10:01,vm,abf_k3x9_3,127.0.0.1,15,0,DISCONNECT,,,0',
  "20261201 00:10:01,vm,root,127.0.0.1,12,43,QUERY,,'SELECT 1 /* ab:other:read:9 */',0",
  '',
].join('\n');

const generalLog = [
  '261201  0:10:01\t    14 Connect\tabc_k3x9@127.0.0.1 on  using TCP/IP',
  '\t\t    14 Quit\t',
  '\t\t    15 Connect\tabf_k3x9_3@127.0.0.1 on  using TCP/IP',
  "\t\t    15 Connect\tAccess denied for user 'abf_k3x9_3'@'127.0.0.1' (using password: YES)",
  "\t\t    12 Query\tALTER TABLE `auditbench_completeness`.ddl_target COMMENT = '2' /* ab:k3x9:ddl:2 */",
  '',
].join('\n');

const sqlErrors = [
  "2026-12-01  0:10:01 root[root] @ localhost [127.0.0.1] ERROR 1146: Table 'auditbench_completeness.missing_k3x9' doesn't exist : SELECT id FROM `auditbench_completeness`.missing_k3x9 WHERE id = 4 /* ab:k3x9:failed:4 */",
  "2026-12-01  0:10:01 [abf_k3x9_5] @ localhost [127.0.0.1] ERROR 1045: Access denied for user 'abf_k3x9_5'@'localhost' (using password: YES) : (null)",
  '',
].join('\n');

describe('findMarkers', () => {
  test('server_audit: statement markers per record, TABLE records without text, connects by id, failed logins by name', () => {
    const { events, rejected } = parseServerAuditLog(serverAudit);
    expect(rejected).toEqual([]);
    expect(ids(findMarkers(events, 'k3x9'))).toEqual({
      read: { 1: 2 },
      write: {},
      failed: { 1: 1 },
      ddl: {},
      connect: { 14: 1 },
      failedLogin: { 3: 1 },
    });
  });

  test('general log: the Connect line before "Access denied" is not a second failed login', () => {
    const { events, rejected } = parseGeneralLog(generalLog);
    expect(rejected).toEqual([]);
    expect(ids(findMarkers(events, 'k3x9'))).toMatchObject({
      ddl: { 2: 1 },
      connect: { 14: 1 },
      failedLogin: { 3: 1 },
    });
  });

  test('sql_errlog: failed statements, and failed logins as error 1045', () => {
    const { events, rejected } = parseSqlErrlog(sqlErrors);
    expect(rejected).toEqual([]);
    expect(ids(findMarkers(events, 'k3x9'))).toMatchObject({
      failed: { 4: 1 },
      failedLogin: { 5: 1 },
      read: {},
    });
  });

  test('a marker twice in one record counts once; marker 1 is not found inside marker 12', () => {
    const events = parseServerAuditLog(
      "20261201 00:10:01,vm,root,h,1,1,QUERY,,'SELECT 1 /* ab:k3x9:read:12 */ /* ab:k3x9:read:12 */',0\n",
    ).events;
    expect(ids(findMarkers(events, 'k3x9')).read).toEqual({ 12: 1 });
  });
});
