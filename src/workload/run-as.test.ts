import { expect, test } from 'vitest';
import type { ConnectionOptions } from '../servers/started-server.ts';
import { runnerAs } from './run-as.ts';
import type { SysbenchRunner } from './sysbench-runner.ts';
import { getWorkload } from './workloads.ts';

test('sysbench logs in as the given account, not as the connection the measurement passes', async () => {
  const users: string[] = [];
  const inner: SysbenchRunner = {
    prepare: async (conn) => {
      users.push(`prepare:${conn.user}`);
    },
    run: async (conn) => {
      users.push(`run:${conn.user}`);
      throw new Error('not needed');
    },
  };
  const admin: ConnectionOptions = { host: '127.0.0.1', port: 3306, user: 'root', password: 'r' };
  const app = { ...admin, user: 'auditbench_app', password: 'a' };
  const runner = runnerAs(app, inner);
  await runner.prepare(admin, getWorkload('smoke'));
  await expect(runner.run(admin, getWorkload('smoke'), { durationS: 1 })).rejects.toThrow('not needed');
  expect(users).toEqual(['prepare:auditbench_app', 'run:auditbench_app']);
});
