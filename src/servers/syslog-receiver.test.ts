import { describe, expect, test } from 'vitest';
import { type PrivateDevLogFacts, privateDevLogProblem, syslogRunRefusal } from './syslog-receiver.ts';

const able: PrivateDevLogFacts = {
  target: 'local',
  root: true,
  unshare: '/usr/bin/unshare',
  rsyslogd: '/usr/sbin/rsyslogd',
};

describe('a syslog run gets a private /dev/log, or is refused naming why', () => {
  test.for([
    ['root, unshare and rsyslogd on the local target', able, null],
    ['not root', { ...able, root: false }, 'needs root: run auditbench as root'],
    ['no unshare', { ...able, unshare: null }, 'unshare is not on PATH: install util-linux'],
    ['no rsyslogd', { ...able, rsyslogd: null }, 'rsyslogd is not installed: run scripts/setup.sh'],
    ['the container target', { ...able, target: 'container' }, 'AUDITBENCH_TARGET=local'],
    ['the external target', { ...able, target: 'external' }, 'neither owns nor reads'],
  ] as const)('%s', ([, facts, says]) => {
    const problem = privateDevLogProblem(facts as PrivateDevLogFacts);
    if (says === null) expect(problem).toBeNull();
    else expect(problem).toContain(says);
  });

  test('the refusal is one line naming the run, the setting and the host journal', () => {
    const line = syslogRunRefusal('payments', 'unshare is not on PATH: install util-linux');
    expect(line).toBe(
      "run 'payments' sends its records to syslog (server_audit_output_type=syslog), and auditbench gives such a run a private /dev/log so none reaches this host's journal; it cannot here: unshare is not on PATH: install util-linux",
    );
  });
});
