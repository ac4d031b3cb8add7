import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { execa } from 'execa';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { loadEnvironment } from '../../src/config/env.ts';
import { startServer } from '../../src/servers/start-server.ts';
import type { StartedServer } from '../../src/servers/started-server.ts';
import { prepareSysbench, runSysbench } from '../../src/workload/sysbench-runner.ts';
import { workloads } from '../../src/workload/workloads.ts';
import { fakePluginSuite, shardMachine } from '../report-merge/fake-plugin.ts';

// A stand-in result, so every report writer (results, history, summary, HTML, junit) produces its file.
fakePluginSuite({
  title: 'Secret check',
  configHash: 'ssssssssssss',
  machine: shardMachine('secrets', 2),
  overheadPct: 10,
  overheadCi95: [8, 12],
});

const config = loadEnvironment();
// One thread on one small table: no deadlocks to retry, so the run is judged on the password path alone.
const tiny = { ...workloads.smoke, tables: 1, tableSize: 1_000, threads: 1 };
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
let server: StartedServer | undefined;

describe('a short real session', () => {
  beforeAll(async () => {
    server = await startServer({ ...config, target: 'local' });
    // Handed to the outer test only: beside the report dir it greps, not in it.
    await writeFile(
      path.join(path.dirname(path.resolve(config.reportDir)), 'secret'),
      server.connection.password,
      {
        mode: 0o600,
      },
    );
  });
  afterAll(() => server?.stop());

  test('sysbench prepares and runs, while every command line is sampled', async () => {
    if (!server) throw new Error('no server');
    await prepareSysbench(server.connection, tiny);
    const sampled = sleep(1_500).then(() => execa('ps', ['-eo', 'args']));
    const run = await runSysbench(server.connection, tiny, { durationS: 3 });
    const ps = (await sampled).stdout;
    await writeFile(path.join(config.reportDir, 'ps-during-run.txt'), ps);
    expect(ps).toMatch(/sysbench .*oltp_read_write/);
    expect(run.ok).toBe(true);
  });

  test('the error log tail and a failing statement reach the output and junit', async () => {
    console.log(await server?.errorLogTail(200));
    // Fails on purpose: its message and cause chain go into junit.xml.
    await server?.query('SELECT * FROM no_such_table');
  });
});
