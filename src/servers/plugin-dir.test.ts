import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, expect, test } from 'vitest';
import { pluginDirOptions } from './plugin-dir.ts';

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), 'plugin-dir-test-'));
});
afterEach(() => rm(dir, { recursive: true, force: true }));

test("a supplied plugin's *.cnf is read as a DBA's option file and classified", async () => {
  await writeFile(
    path.join(dir, 'offsets.cnf'),
    [
      '[mysqld]',
      'loose-audit_offsets=6976, 7024, 3984',
      'datadir=/var/lib/mysql',
      'plugin_load_add=evil.so',
      '!include /etc/mysql/secret.cnf',
      '[mariadb]',
      'loose-audit_json_log_file=/var/log/mysql/audit.json',
      '[client]',
      'port=3306',
      '',
    ].join('\n'),
  );
  const { options, lines } = await pluginDirOptions(dir, null);
  expect(options).toEqual({
    'loose-audit_offsets': '6976, 7024, 3984',
    'loose-audit_json_log_file': 'audit.json',
  });
  const file = path.join(dir, 'offsets.cnf');
  expect(lines).toEqual([
    `${file}:5: !include is not followed (give the included file's settings directly)`,
    `${file}:8: [client] (1 line) is left out: the server reads only the groups mysqld, server, mysqld-10.11, mariadb, mariadb-10.11, mariadbd, mariadbd-10.11, client-server, galera (MariaDB 10.11's mariadbd --help --verbose, as recorded (no server binary here to ask)), so production's server never reads these lines either`,
    `${file}:3 [mysqld]: datadir is left out: the run's server keeps its own data directory, socket and files in its own folder; production's are never touched`,
    `${file}:4 [mysqld]: plugin_load_add is left out: auditbench installs a supplied plugin itself`,
    `${file}:7 [mariadb]: production writes /var/log/mysql/audit.json (loose-audit_json_log_file); this run writes <run>/audit.json`,
  ]);
});

test('a value that would add a my.cnf line is refused with one line', async () => {
  await writeFile(path.join(dir, 'x.cnf'), '[mysqld]\nloose-audit_offsets="1\\nplugin_load_add=evil.so"\n');
  await expect(pluginDirOptions(dir, null)).rejects.toThrow(
    /^AUDITBENCH_PLUGIN_DIR: .*x\.cnf:2 \[mysqld\]: loose-audit_offsets holds the control character U\+000A/,
  );
});
