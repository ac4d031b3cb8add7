// Child of suites/syslog-canary.suite.ts, run inside the canary's mount namespace: a local server as every suite
// starts one (with its own receiver), server_audit sending to syslog as the sweep's sa-syslog-payments configures
// it, statements with a marker, then the records the run's own receiver kept. Prints `RECEIVED <n> OF <sent>`.
import { logParsers } from '../../src/plugins/logs/index.ts';
import { runSteps, setGlobals } from '../../src/plugins/steps.ts';
import { serverAudit } from '../../src/profiles/server-audit.ts';
import { resolveRun } from '../../src/runs/runs.ts';
import { startLocalServer } from '../../src/servers/local-server.ts';

const SENT = 50;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

const { profile } = resolveRun(
  {
    plugin: 'server_audit',
    id: 'syslog-canary',
    settings: { server_audit_output_type: 'syslog', server_audit_syslog_ident: 'payments' },
  },
  serverAudit,
  null,
);
const server = await startLocalServer({
  mysqldPath: process.env.AUDITBENCH_MYSQLD ?? null,
  searchPath: process.env.PATH ?? '',
});
try {
  await runSteps(server, profile.install, 'Installing server_audit');
  await runSteps(server, setGlobals(profile.measureSettings), 'Applying the syslog settings');
  await runSteps(server, profile.enable, 'Enabling server_audit');
  for (let i = 1; i <= SENT; i++) await server.query(`SELECT 'auditbench_canary_${i}'`);
  let received = 0;
  // rsyslogd writes its file a moment after the records arrive.
  for (let waitedMs = 0; waitedMs <= 10_000 && received < SENT; waitedMs += 200) {
    const text = (await server.readFile(profile.log.file ?? '').catch(() => Buffer.alloc(0))).toString(
      'utf8',
    );
    const format = profile.log.format;
    const events = format ? logParsers[format](text).events : [];
    received = events.filter((e) => /'auditbench_canary_\d+'/.test(e.queryText)).length;
    if (received < SENT) await sleep(200);
  }
  await runSteps(server, profile.uninstall, 'Uninstalling server_audit');
  console.log(`RECEIVED ${received} OF ${SENT}`);
} finally {
  await server.stop();
}
