import { expect, test } from 'vitest';
import { createFakeServer } from '../../test/support/fake-server.ts';
import { profiles } from '../profiles/index.ts';
import { getWorkload } from '../workload/workloads.ts';
import { runCell } from './run-cell.ts';

test('a server that refuses the traffic accounts is an error cell with the reason, not a missing cell', async () => {
  const server = createFakeServer({
    info: { flavor: 'mariadb', version: '10.11.19' },
    rules: [
      {
        match: /^CREATE USER/i,
        reply: {
          error: { errno: 1819, message: 'Your password does not satisfy the current policy requirements' },
        },
      },
    ],
  });
  const cell = await runCell(server, profiles.server_audit, {
    image: 'auditbench/mariadb:10.11',
    workload: getWorkload('smoke'),
    limitPct: 50,
    progress: () => {},
  });
  expect(cell.outcome).toBe('error');
  expect(cell.reason).toMatch(
    /^creating the traffic accounts: Creating account 'auditbench_\w+' failed: .*policy/,
  );
  expect(cell.lifecycleOk).toBeNull();
});
