import { execaSync } from 'execa';
import { expect, test } from 'vitest';
import { serverAudit } from '../../fixtures/plugins/server-audit.ts';
import { createFakeServer } from '../../test/support/fake-server.ts';
import { freePort } from '../servers/free-port.ts';
import { workloads } from '../workload/workloads.ts';
import { toggledRun } from './toggled-run.ts';

const hasSysbench = execaSync('sysbench', ['--version'], { reject: false }).exitCode === 0;
const smoke = workloads.smoke as typeof workloads.smoke & { design: { kind: 'toggle'; segmentS: number } };

// A real sysbench against a port nobody listens on exits at once, before 'Threads started!'.
test.skipIf(!hasSysbench)(
  'a sysbench that exits before its threads start fails within seconds, saying why',
  async () => {
    const fake = createFakeServer();
    const server = { ...fake, connection: { ...fake.connection, port: await freePort() } };
    const started = Date.now();
    const error = await toggledRun(
      server,
      { label: 'server_audit', arms: { off: [], on: [] }, log: serverAudit },
      smoke,
      {
        pairs: 2,
      },
    ).then(
      () => new Error('the run succeeded'),
      (e: Error) => e,
    );
    expect(error.message).toMatch(/sysbench exited before its threads started/);
    expect(error.message).toMatch(/Can't connect|unable to connect/);
    expect(Date.now() - started).toBeLessThan(10_000);
  },
);
