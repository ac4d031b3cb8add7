import { expect, test } from 'vitest';
import { profiles } from '../profiles/index.ts';
import { borrowedPlugins } from './expectations.ts';

test("the libraries lent come from the profiles: MariaDB's server_audit.so, into MySQL images only", () => {
  const lent = borrowedPlugins(profiles);
  expect(lent.map((l) => l.file)).toEqual(['/usr/lib/mysql/plugin/server_audit.so']);
  expect(lent[0]?.into('auditbench/mysql:9.7')).toBe(true);
  expect(lent[0]?.into('auditbench/mariadb:10.11')).toBe(false);
});
