import { describe, expect, test } from 'vitest';
import {
  type DrainIo,
  drainThrough,
  type PrivateDevLogFacts,
  privateDevLogProblem,
  privateDevWrapper,
  receiverConfig,
  receiverPaths,
  syslogRunRefusal,
} from './syslog-receiver.ts';

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
    // Its receiver is in the image, checked per image (container-syslog.ts).
    ['the container target, whose /dev is its own', { ...able, target: 'container', root: false }, null],
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

describe("the receiver's configuration and the server's launch", () => {
  const paths = receiverPaths('/tmp/auditbench-x', '/tmp/auditbench-x/data');

  test('its own socket and file; rate limit, escaping and the 8 KiB limit off', () => {
    const config = receiverConfig(paths);
    expect(config).toContain('module(load="imuxsock" SysSock.Use="off")');
    expect(config).toContain('Socket="/tmp/auditbench-x/syslog/log" RateLimit.Interval="0"');
    expect(config).toContain('parser.escapeControlCharactersOnReceive="off"');
    expect(config).toContain('maxMessageSize="1048576"');
    expect(config).toContain('file="/tmp/auditbench-x/data/syslog.log"');
  });

  test("rsyslogd's own messages stay in its folder: none go to the system's /dev/log, none among the records", () => {
    const config = receiverConfig(paths).split('\n');
    expect(config[0]).toContain('processInternalMessages="on"');
    const internal = config.findIndex((line) => line.startsWith('if $inputname == "rsyslogd"'));
    expect(config[internal]).toContain('file="/tmp/auditbench-x/syslog/rsyslogd.log") stop }');
    expect(internal).toBeLessThan(config.findIndex((line) => line.includes('syslog.log')));
  });

  test('namespace, then callgrind, then the server: exec keeps the pid, /dev a tmpfs', () => {
    const inner = { command: 'valgrind', args: ['--tool=callgrind'], env: { A: '1' } };
    const wrapper = privateDevWrapper('/usr/bin/unshare', paths.socket, inner);
    expect(wrapper.command).toBe('/usr/bin/unshare');
    expect(wrapper.args.slice(0, 5)).toEqual(['-m', '--propagation', 'slave', 'sh', '-c']);
    const script = wrapper.args[5] ?? '';
    expect(script).toMatch(/^set -e; mount -t tmpfs .* \/dev; mknod -m 666 \/dev\/null c 1 3; /);
    expect(script).toMatch(/ln -s \/tmp\/auditbench-x\/syslog\/log \/dev\/log; exec "\$@"$/);
    expect(wrapper.args.slice(6)).toEqual(['sh', 'valgrind', '--tool=callgrind']);
    expect(wrapper.env).toEqual({ A: '1' });
  });

  test('a socket path with shell characters is refused, never quoted into the script', () => {
    expect(() => privateDevWrapper('/usr/bin/unshare', "/tmp/a b'; rm", null)).toThrow(/not a plain path/);
  });
});

describe('a drain', () => {
  test('waits for its marker, then for the records file to hold still', async () => {
    let polls = 0;
    const sizes = [10, 20, 30, 30];
    let sent = '';
    const io: DrainIo = {
      send: async (token) => {
        sent = token;
      },
      drained: async () => (++polls >= 3 ? `x ${sent}\n` : ''),
      outputSize: async () => sizes.shift() ?? 30,
    };
    await drainThrough(io, '/dev/log');
    expect(polls).toBe(3);
    expect(sizes).toEqual([]);
  });
});
