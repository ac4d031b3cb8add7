import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdir, mkdtemp, rm, stat, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, expect, test } from 'vitest';
import { defaultsFileArg, sweepStale } from '../src/servers/cleanup.ts';
import type { OwnerRecord } from '../src/servers/owner-record.ts';
import { isAlive, startTicksOf } from '../src/servers/proc-table.ts';

const children: ChildProcess[] = [];
let scratch = '';

/** A real process that lives until killed; `argv0` is what /proc/<pid>/cmdline shows first. */
async function longSleep(argv0: string, detached = false): Promise<number> {
  const child = spawn('sleep', ['300'], { argv0, detached, stdio: 'ignore' });
  children.push(child);
  await once(child, 'spawn');
  return child.pid as number;
}

afterAll(async () => {
  for (const child of children) child.kill('SIGKILL');
  await rm(scratch, { recursive: true, force: true });
});

// Issue 53: the old sweep gave `--defaults-file=<folder>/my.cnf` to `pkill -f` as a pattern, so a folder named
// auditbench-x|.*|y with a dead owner ended every process on the machine.
test('a crafted stale folder with regex characters in a scratch TMPDIR: the sweep ends its server and nothing else', async () => {
  scratch = await mkdtemp(path.join(os.tmpdir(), 'stale-sweep-'));
  const dir = path.join(scratch, 'auditbench-x|.*|y');
  await mkdir(dir, { mode: 0o700 });
  // Its owner: a process that recorded itself, then was killed (as a run killed before its reaper could act).
  const owner = await longSleep('auditbench-owner');
  const record: OwnerRecord = { owner: { pid: owner, startTicks: await startTicksOf(owner) }, servers: [] };
  const victim = await longSleep(defaultsFileArg(dir), true);
  record.servers.push({ pid: victim, startTicks: await startTicksOf(victim) });
  await writeFile(path.join(dir, 'owner.json'), JSON.stringify(record));
  const bystanders = {
    'a plain process': await longSleep('sleep'),
    'a server of another folder the old pattern matched': await longSleep(
      defaultsFileArg(path.join(scratch, 'auditbench-xQQy')),
      true,
    ),
  };
  expect(new RegExp(defaultsFileArg(dir)).test(defaultsFileArg(path.join(scratch, 'auditbench-xQQy')))).toBe(
    true,
  );
  process.kill(owner, 'SIGKILL');
  await once(children[0] as ChildProcess, 'exit');

  const lines: string[] = [];
  const outcome = await sweepStale(scratch, (line) => lines.push(line));

  console.log(`stale sweep in ${scratch}: ${lines.join('; ')}`);
  expect(outcome.removed).toEqual([{ dir, endedPids: [victim] }]);
  expect(isAlive(victim) && (await startTicksOf(victim)) !== null, 'the victim still runs').toBe(false);
  for (const [what, pid] of Object.entries(bystanders)) {
    expect(isAlive(pid) && (await startTicksOf(pid)) !== null, `${what} (pid ${pid}) was ended`).toBe(true);
  }
  console.log(
    `bystanders alive: ${Object.entries(bystanders)
      .map(([what, pid]) => `${what} (pid ${pid})`)
      .join(', ')}`,
  );
  await expect(stat(dir)).rejects.toThrow(/ENOENT/);
});
