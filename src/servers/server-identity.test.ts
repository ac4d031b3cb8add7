import { expect, test } from 'vitest';
import { flavorOf } from './server-identity.ts';

test.for([
  ['10.11.19-MariaDB-0+deb12u1', 'Debian 12', 'mariadb'],
  ['9.7.0', 'MySQL Community Server - GPL', 'mysql'],
  ['8.0.36-28', 'Percona Server (GPL), Release 28, Revision 47601f19', 'percona'],
])('%s (%s) is %s', ([version, comment, flavor]) => {
  expect(flavorOf(version as string, comment as string)).toBe(flavor);
});
