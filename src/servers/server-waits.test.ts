import type { ResultPromise } from 'execa';
import { expect, test } from 'vitest';
import { fakeClock } from '../../test/support/scripted-sysbench.ts';
import { waitUntilRestarted } from './restart-command.ts';
import { waitUntilReady } from './server-process.ts';
import type { ConnectionOptions } from './started-server.ts';

// A socket that does not exist: every connection fails at once, with no network and no server. The deadlines are
// short because each poll still tries a real (failing) connection.
const nowhere: ConnectionOptions = {
  host: '127.0.0.1',
  port: 0,
  user: 'root',
  password: '',
  socketPath: '/nonexistent/auditbench-waits.sock',
};

test('a start that never answers is given up at its deadline on the clock handed in, not on the wall clock', async () => {
  const clock = fakeClock();
  const running = {
    child: {} as ResultPromise,
    exited: new Promise<never>(() => {}),
    hasExited: () => false,
  };
  const outcome = await waitUntilReady(running, nowhere, 2_000, clock);
  expect(outcome).toEqual({ ready: false, why: 'did not accept connections within 2 s' });
  expect(clock.sleptMs.reduce((a, b) => a + b, 0)).toBe(2_000);
});

test('a server that exits while it is awaited is reported by its exit, at the instant the clock says', async () => {
  const clock = fakeClock(0);
  const exits = { code: 1, signal: null };
  const dying = {
    child: {} as ResultPromise,
    exited: Promise.resolve(exits),
    hasExited: () => clock.nowMs() >= 1_000,
  };
  expect(await waitUntilReady(dying, nowhere, 30_000, clock)).toEqual({
    ready: false,
    why: 'exited with code 1',
  });
  expect(clock.nowMs()).toBe(1_000);
});

test('a restart that never comes back is given up at its deadline on the clock, with the last connection error', async () => {
  const clock = fakeClock();
  const outcome = await waitUntilRestarted(nowhere, clock.nowMs(), 3_000, clock);
  expect(outcome.ready).toBe(false);
  expect(outcome.ready ? '' : outcome.why).toMatch(
    /^did not come back within 3 s \(last connection error: .*ENOENT/,
  );
  expect(clock.sleptMs.reduce((a, b) => a + b, 0)).toBe(3_000);
});
