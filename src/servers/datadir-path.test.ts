import path from 'node:path';
import { expect, test } from 'vitest';
import { resolveInDatadir } from './datadir-path.ts';

test.for([
  ['.', '/var/lib/mysql'],
  ['server_audit.log', '/var/lib/mysql/server_audit.log'],
  ['logs/../audit.log', '/var/lib/mysql/audit.log'],
])('%s resolves inside the datadir', ([relative, expected]) => {
  expect(resolveInDatadir('/var/lib/mysql/', relative as string, path.posix)).toBe(expected);
});

test.for(['../my.cnf', '/etc/passwd', '../mysql-other/x'])('%s is refused', (relative) => {
  expect(() => resolveInDatadir('/var/lib/mysql', relative, path.posix)).toThrow(
    `'${relative}' is outside the server's datadir: only files in the datadir can be read`,
  );
});
