import { expect, test } from 'vitest';
import {
  classifyInstallFailure,
  describeCell,
  type MatrixCell,
  serverFromImage,
  unavailableCell,
} from './cell.ts';

test.for([
  [
    1126,
    "Can't open shared library '/usr/lib/mysql/plugin/server_audit.so' (errno: 0 undefined symbol: PSI_server)",
    'incompatible',
  ],
  [
    1123,
    "Can't initialize function 'AUDIT'; Plugin initialization function failed.\nError log tail: …",
    'incompatible',
  ],
  [1045, 'Access denied', 'error'],
  [null, 'connection lost', 'error'],
] as const)('errno %s is %s', ([errno, message, outcome]) => {
  const result = classifyInstallFailure(errno, message);
  expect(result.outcome).toBe(outcome);
  expect(result.reason).not.toContain('\n');
});

test('cells read as one line', () => {
  const base: MatrixCell = {
    plugin: 'MariaDB server_audit',
    server: { flavor: 'mariadb', version: '10.5.23', target: 'container', image: 'auditbench/mariadb:10.5' },
    outcome: 'works',
    reason: '',
    lifecycleOk: true,
    overheadPct: 12.34,
    overheadCi95: [10.1, 14.44],
    verdict: 'pass',
  };
  expect(describeCell(base)).toBe('works: 12.3% [10.1, 14.4] pass');
  expect(describeCell({ ...base, outcome: 'incompatible', reason: 'undefined symbol: PSI_server' })).toBe(
    'incompatible: undefined symbol: PSI_server',
  );
});

test("the reason is the server's answer, not our wrapping", () => {
  const wrapped =
    "Installing SERVER_AUDIT failed at step 1 (INSTALL PLUGIN server_audit SONAME 'server_audit.so') on mysql 9.7.4-2: ERROR 1126 (HY000): Can't open shared library '/usr/lib/mysql/plugin/server_audit.so' (errno: 11 undefined symbol: PSI_server) [in: INSTALL PLUGIN server_audit SONAME 'server_audit.so']\nError log tail: …";
  expect(classifyInstallFailure(1126, wrapped)).toEqual({
    outcome: 'incompatible',
    reason:
      "ERROR 1126 (HY000): Can't open shared library '/usr/lib/mysql/plugin/server_audit.so' (errno: 11 undefined symbol: PSI_server)",
  });
});

test.for([
  ['auditbench/mysql:9.7', 'mysql', '9.7'],
  ['auditbench/mariadb:10.11', 'mariadb', '10.11'],
  ['percona/percona-server:8.4', 'percona', '8.4'],
  ['localhost:5000/mysql', 'mysql', 'unknown version'],
] as const)('serverFromImage(%s) is %s %s', ([image, flavor, version]) => {
  expect(serverFromImage(image)).toEqual({ flavor, version });
});

test('unavailableCell: an unavailable outcome with the reason and the log lines, nothing measured', () => {
  const cell = unavailableCell('MySQL NULL_AUDIT', {
    image: 'auditbench/mysql:9.7',
    reason: 'its image build failed',
    details: ['E: Failed getting release file'],
  });
  expect(cell).toMatchObject({
    outcome: 'unavailable',
    server: { flavor: 'mysql', version: '9.7', image: 'auditbench/mysql:9.7', target: 'container' },
    details: ['E: Failed getting release file'],
    overheadPct: null,
  });
  expect(describeCell(cell)).toBe('unavailable: its image build failed');
});
