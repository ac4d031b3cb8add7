import { execa } from 'execa';
import { type Clock, realClock } from '../clock/clock.ts';
import type { ReadyOutcome } from './server-process.ts';
import { SqlSession } from './sql-session.ts';
import type { ConnectionOptions } from './started-server.ts';
import { tailLines } from './tail.ts';

/** What the restart command is asked to do: stop cleanly, or SIGKILL (crash recovery); then start again. */
export type RestartMode = 'graceful' | 'kill';

/**
 * Runs AUDITBENCH_RESTART_CMD through the shell with two arguments: $1, how to stop the server (graceful or kill),
 * and $2, a [mysqld] option file holding auditbench's options, to include when it starts the server again.
 */
export async function runRestartCommand(
  command: string,
  mode: RestartMode,
  cnfFile: string,
  timeoutMs = 120_000,
): Promise<void> {
  const result = await execa('sh', ['-c', command, 'auditbench-restart', mode, cnfFile], {
    reject: false,
    all: true,
    stdin: 'ignore',
    timeout: timeoutMs,
  });
  if (result.failed) {
    const how = result.timedOut
      ? `did not finish within ${timeoutMs / 1000} s`
      : `exited with ${result.exitCode}`;
    throw new Error(
      `AUDITBENCH_RESTART_CMD ${how} ($1 ${mode}): ${command}\n${tailLines(result.all ?? '', 15)}`,
    );
  }
}

async function uptimeS(connection: ConnectionOptions): Promise<number> {
  const session = new SqlSession(connection);
  try {
    const { rows } = await session.query("SHOW GLOBAL STATUS LIKE 'Uptime'");
    return Number(rows[0]?.Value);
  } finally {
    await session.close();
  }
}

/**
 * Polls until the server answers with an uptime that began after `sinceMs`, so a command that returns before
 * the server went down is not taken for a restart; then checks it stays up a moment.
 */
export async function waitUntilRestarted(
  connection: ConnectionOptions,
  sinceMs: number,
  timeoutMs: number,
  clock: Clock = realClock,
): Promise<ReadyOutcome> {
  const deadline = clock.nowMs() + timeoutMs;
  let last = 'it never answered';
  while (clock.nowMs() < deadline) {
    try {
      const uptime = await uptimeS(connection);
      // Uptime counts whole seconds: allow one for rounding.
      if (uptime <= (clock.nowMs() - sinceMs) / 1000 + 1) {
        await clock.sleepMs(500);
        await uptimeS(connection);
        return { ready: true };
      }
      last = `it still answers with an uptime of ${uptime} s, so it was not restarted`;
    } catch (error) {
      last = `last connection error: ${error instanceof Error ? error.message : String(error)}`;
    }
    await clock.sleepMs(250);
  }
  return { ready: false, why: `did not come back within ${Math.round(timeoutMs / 1000)} s (${last})` };
}
