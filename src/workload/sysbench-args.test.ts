import { describe, expect, test } from 'vitest';
import type { ConnectionOptions } from '../servers/started-server.ts';
import { createDatabaseArgs, prepareArgs, runArgs, sysbenchEnv } from './sysbench-args.ts';
import { workloads } from './workloads.ts';

const tcp: ConnectionOptions = { host: '127.0.0.1', port: 33_999, user: 'bench', password: 'pw' };

describe('sysbench arguments', () => {
  test('a run is time-bound, reports every second and uses the workload', () => {
    expect(runArgs(tcp, workloads.smoke, 7)).toEqual([
      'oltp_read_write',
      '--db-driver=mysql',
      '--mysql-host=127.0.0.1',
      '--mysql-port=33999',
      '--mysql-user=bench',
      '--mysql-db=auditbench',
      '--tables=4',
      '--table-size=10000',
      '--threads=4',
      '--report-interval=1',
      '--percentile=95',
      '--time=7',
      '--events=0',
      '--rand-type=uniform',
      'run',
    ]);
  });

  test('an open-loop workload sends a fixed rate after the run length', () => {
    const args = runArgs(tcp, { ...workloads.smoke, rate: 350 }, 7);
    expect(args.slice(args.indexOf('--events=0'), args.indexOf('--events=0') + 2)).toEqual([
      '--events=0',
      '--rate=350',
    ]);
    expect(runArgs(tcp, workloads.smoke, 7).some((arg) => arg.startsWith('--rate'))).toBe(false);
  });

  test('the password never reaches the command line, only the environment the client library reads', () => {
    const secret = 'pw-Secret-1';
    const conn = { ...tcp, password: secret };
    for (const args of [runArgs(conn, workloads.smoke, 7), prepareArgs(conn, workloads.smoke)]) {
      expect(args.join(' ')).not.toContain(secret);
    }
    expect(createDatabaseArgs(conn, '/x.lua').join(' ')).not.toContain(secret);
    expect(sysbenchEnv(conn)).toEqual({ MYSQL_PWD: secret });
  });

  test('a socket replaces host and port', () => {
    const args = prepareArgs({ ...tcp, socketPath: '/tmp/s.sock' }, workloads.smoke);
    expect(args).toContain('--mysql-socket=/tmp/s.sock');
    expect(args).toContain('--mysql-host=localhost');
    expect(args.some((arg) => arg.startsWith('--mysql-port'))).toBe(false);
    expect(args.at(-1)).toBe('prepare');
  });

  test('creating the database connects without selecting one', () => {
    expect(createDatabaseArgs(tcp, '/x/create-database.lua')).toEqual(
      expect.arrayContaining(['/x/create-database.lua', '--mysql-db=', '--create-db=auditbench', 'prepare']),
    );
  });

  test.for([
    { field: 'durationS', value: 2.5, make: () => runArgs(tcp, workloads.smoke, 2.5) },
    { field: 'threads', value: 0, make: () => prepareArgs(tcp, { ...workloads.smoke, threads: 0 }) },
    { field: 'tables', value: -1, make: () => prepareArgs(tcp, { ...workloads.smoke, tables: -1 }) },
    { field: 'rate', value: 0.5, make: () => runArgs(tcp, { ...workloads.smoke, rate: 0.5 }, 7) },
  ])('rejects $field = $value', ({ field, value, make }) => {
    expect(make).toThrow(`Workload 'smoke': ${field} must be a whole number of at least 1, got ${value}`);
  });

  test("a DBA's script replaces the test and gets only the options every script accepts", () => {
    const own = { ...workloads.smoke, script: '/cfg/kv.lua' };
    expect(prepareArgs(tcp, own)).toEqual([
      '/cfg/kv.lua',
      '--db-driver=mysql',
      '--mysql-host=127.0.0.1',
      '--mysql-port=33999',
      '--mysql-user=bench',
      '--mysql-db=auditbench',
      '--threads=4',
      'prepare',
    ]);
    expect(runArgs(tcp, own, 7)).not.toContain('--tables=4');
  });

  test('preparedStatements: false sends statements as text, the default leaves sysbench its auto mode', () => {
    expect(runArgs(tcp, { ...workloads.smoke, preparedStatements: false }, 7)).toContain(
      '--db-ps-mode=disable',
    );
    expect(runArgs(tcp, workloads.smoke, 7).some((a) => a.startsWith('--db-ps-mode'))).toBe(false);
  });
});
