import { existsSync } from 'node:fs';
import { execa } from 'execa';
import { describe, expect, test } from 'vitest';
import { loadEnvironment } from '../src/config/env.ts';
import { privateDevLogFacts, privateDevLogProblem } from '../src/servers/syslog-receiver.ts';

/**
 * The host gets nothing (issue 65): a syslog run of server_audit inside an outer mount namespace whose /dev/log is
 * a canary, a receiver that only counts datagrams, leaves the canary at 0, while the run's own receiver keeps every
 * record; and a host without /dev/log has none after. The outer namespace is the host as the run sees it: a tmpfs on
 * /dev with the device nodes Node and the harness open, and the canary's socket at /dev/log. Cost: one local server
 * started and stopped in the child, 7 s (measured while other work ran).
 */
const config = loadEnvironment();
const facts = await privateDevLogFacts(config.target, config.searchPath);
const problem =
  privateDevLogProblem(facts) ??
  ((await execa('python3', ['--version'], { reject: false })).exitCode === 0
    ? null
    : 'python3 is not on PATH: the canary (suites/syslog-canary/canary-receiver.py) binds the Unix datagram socket Node cannot');

// $1 python3, $2 the canary's script, $3 node, $4 the child. The canary is stopped with SIGTERM after logger has
// sent it one datagram of control, so a canary that counts nothing cannot pass as a host that got nothing.
const outerNamespace = [
  'set -e',
  'mount -t tmpfs -o mode=755,size=64k auditbench-canary /dev',
  'mknod -m 666 /dev/null c 1 3; mknod -m 666 /dev/zero c 1 5; mknod -m 666 /dev/full c 1 7',
  'mknod -m 666 /dev/random c 1 8; mknod -m 666 /dev/urandom c 1 9; mknod -m 666 /dev/tty c 5 0',
  'ln -s /proc/self/fd /dev/fd',
  '"$1" "$2" /dev/log & canary=$!',
  'i=0; while [ ! -S /dev/log ] && [ $i -lt 50 ]; do sleep 0.1; i=$((i + 1)); done',
  'status=0; "$3" --import tsx "$4" || status=$?',
  'logger -d -u /dev/log -t auditbench-canary control',
  'kill -TERM $canary; wait $canary || true',
  'exit $status',
].join('\n');

describe('syslog: the host gets nothing', () => {
  test.skipIf(problem !== null)(
    `a syslog run inside a namespace whose /dev/log is a canary leaves it at 0 datagrams${problem ? ` (skipped: ${problem})` : ''}`,
    { timeout: 90_000 },
    async () => {
      const hostHadDevLog = existsSync('/dev/log');
      const child = await execa(
        'unshare',
        [
          ...['-m', '--propagation', 'private', 'sh', '-c', outerNamespace, 'sh'],
          ...['python3', 'suites/syslog-canary/canary-receiver.py', process.execPath],
          'suites/syslog-canary/syslog-run.mts',
        ],
        { reject: false, all: true, timeout: 80_000 },
      );
      const out = child.all ?? '';
      expect(child.exitCode, `the run in the canary's namespace failed:\n${out}`).toBe(0);
      const received = /RECEIVED (\d+) OF (\d+)/.exec(out);
      const canary = /CANARY (\d+)/.exec(out);
      expect(received, `the run printed no count:\n${out}`).not.toBeNull();
      expect(canary, `the canary printed no count:\n${out}`).not.toBeNull();
      // Every datagram the canary got but logger's one is the run's.
      const fromRun = Number(canary?.[1]) - 1;
      console.log(
        `[syslog canary] ${received?.[1]} of ${received?.[2]} statements' records in the run's own receiver; the canary at /dev/log got ${fromRun} datagrams from the run (${canary?.[1]} with logger's control); host /dev/log ${hostHadDevLog ? 'present' : 'absent'} before, ${existsSync('/dev/log') ? 'present' : 'absent'} after`,
      );
      expect(received?.[1], "the run's own receiver did not keep every record").toBe(received?.[2]);
      expect(
        Number(canary?.[1]),
        "the canary did not count logger's control datagram",
      ).toBeGreaterThanOrEqual(1);
      expect(fromRun, 'datagrams of the run reached the /dev/log outside its namespace').toBe(0);
      if (!hostHadDevLog) expect(existsSync('/dev/log'), 'the run left a /dev/log on the host').toBe(false);
    },
  );
});
