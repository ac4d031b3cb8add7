import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, expect, test } from 'vitest';
import { containerReceiverProblem, RECEIVER_LABEL } from '../servers/container-syslog.ts';
import { syslogRunRefusal } from '../servers/syslog-receiver.ts';
import { preflight } from './preflight.ts';

const dir = await mkdtemp(path.join(tmpdir(), 'auditbench-syslog-preflight-'));
afterAll(() => rm(dir, { recursive: true, force: true }));

// The preflight refuses before any server starts; the external target is refused on every machine (its syslog is its
// own host's), so the test does not depend on this one's rsyslogd or Docker engine.
test('preflight refuses a syslog run it cannot give a receiver, before anything starts', async () => {
  const config = path.join(dir, 'auditbench.config.ts');
  const defineConfig = path.resolve('src/runs/define-config.ts');
  await writeFile(
    config,
    `import { defineConfig } from ${JSON.stringify(defineConfig)};\nexport default defineConfig({ runs: [{ id: 'payments', plugin: 'server_audit', settings: { server_audit_output_type: 'syslog', server_audit_syslog_ident: 'payments' } }] });\n`,
  );
  const env = {
    PATH: process.env.PATH,
    AUDITBENCH_CONFIG: config,
    AUDITBENCH_TARGET: 'external',
    AUDITBENCH_DSN: 'mysql://root:secret@127.0.0.1:3306',
    AUDITBENCH_DSN_DISPOSABLE: '1',
    AUDITBENCH_REPORT_DIR: path.join(dir, 'reports'),
  };
  const error = await preflight(env, { servers: true, probeMs: 1_500 }).then(
    () => new Error('accepted'),
    (e: Error) => e,
  );
  expect(error.message).toBe(
    syslogRunRefusal(
      'payments',
      "an external server's syslog goes to its own host, which auditbench neither owns nor reads: measure it with AUDITBENCH_TARGET=local",
    ),
  );
});

// The container target's receiver is in the image: one built without it, or not auditbench's, is refused by name.
test('a container image without the receiver is named, with how to rebuild it', () => {
  const label = { [RECEIVER_LABEL]: '8.2302.0-1+deb12u1' };
  expect(containerReceiverProblem('auditbench/mariadb:10.11', label)).toBeNull();
  expect(containerReceiverProblem('auditbench/mariadb:10.11', null)).toBeNull();
  expect(containerReceiverProblem('auditbench/mariadb:10.11', {})).toBe(
    'auditbench/mariadb:10.11 was built without a syslog receiver (before 2026-12-08): rebuild it with scripts/docker/build-images.sh --rebuild auditbench/mariadb:10.11 (as root), or measure with AUDITBENCH_TARGET=local',
  );
  expect(containerReceiverProblem('mariadb:11.8', {})).toMatch(
    /^the container target's receiver is an rsyslogd inside auditbench's own images, and mariadb:11.8 is not one: /,
  );
});
