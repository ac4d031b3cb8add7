import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, expect, test } from 'vitest';
import { syslogRunRefusal } from '../servers/syslog-receiver.ts';
import { preflight } from './preflight.ts';

const dir = await mkdtemp(path.join(tmpdir(), 'auditbench-syslog-preflight-'));
afterAll(() => rm(dir, { recursive: true, force: true }));

// The preflight refuses before any server starts; the container target is refused on every machine, so the test
// does not depend on this one's rsyslogd.
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
    AUDITBENCH_TARGET: 'container',
    AUDITBENCH_REPORT_DIR: path.join(dir, 'reports'),
  };
  const error = await preflight(env, { servers: true, probeMs: 1_500 }).then(
    () => new Error('accepted'),
    (e: Error) => e,
  );
  expect(error.message).toBe(
    syslogRunRefusal(
      'payments',
      'the container target has no receiver of its own yet: measure it with AUDITBENCH_TARGET=local',
    ),
  );
});
