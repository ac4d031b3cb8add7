import { expect, test } from 'vitest';
import { parseVersionLine } from './server-binary.ts';

test.for([
  [
    'mariadbd  Ver 10.11.19-MariaDB-0+deb12u1 for debian-linux-gnu on x86_64 (Debian 12)',
    'mariadb',
    '10.11.19-MariaDB-0+deb12u1',
  ],
  ['/usr/sbin/mysqld  Ver 8.0.36 for Linux on x86_64 (MySQL Community Server - GPL)', 'mysql', '8.0.36'],
  [
    '/usr/sbin/mysqld  Ver 8.0.35-27 for Linux on x86_64 (Percona Server (GPL), Release 27, Revision 2f8eeab2)',
    'percona',
    '8.0.35-27',
  ],
])('%s', ([line, flavor, version]) => {
  expect(parseVersionLine(line as string)).toEqual({ flavor, version });
});

test('a line without a version is an error that quotes it', () => {
  expect(() => parseVersionLine('garbage')).toThrow("Cannot read a server version from 'garbage'");
});

test.for([
  'mariadb  Ver 15.1 Distrib 10.11.19-MariaDB, for debian-linux-gnu (x86_64) using  EditLine wrapper',
  'mysql  Ver 8.0.36 for Linux on x86_64 (MySQL Community Server - GPL)',
  'mariadb-admin  Ver 10.0 Distrib 10.11.19-MariaDB, for debian-linux-gnu on x86_64',
])('a client is not a server: %s', (line) => {
  expect(() => parseVersionLine(line)).toThrow(/is not a server's version line/);
});
