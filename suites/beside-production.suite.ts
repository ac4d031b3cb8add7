import { existsSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { loadEnvironment } from '../src/config/env.ts';
import { mergeMeasuredTraffic } from '../src/config/measured-traffic.ts';
import { profiles } from '../src/profiles/index.ts';
import { loadRuns } from '../src/runs/load-runs.ts';
import { type AccountSession, accountSession } from '../src/servers/account-session.ts';
import { startServer } from '../src/servers/start-server.ts';
import type { StartedServer } from '../src/servers/started-server.ts';
import { dropAccountsAndStop, trafficConnections } from '../src/servers/traffic-accounts.ts';
import { productionFiles, serverLifecycle } from './beside-production/production-files.ts';

// auditbench beside production. A production option file aimed at a live server (its datadir, socket, port, pid file,
// error log and audit log, on every interface) is measured in suites/pack-install.suite.ts: the DBA's `pci` run reads
// such a file there, and its `npx vitest run` must leave the live server as it was and listen on 127.0.0.1 only. Until
// 2026-12-06 this suite ran an `auditbench bench` of its own on such a file (69 s), a run measured a second time.
// Here, on one server: Debian's own packaged server file as a run's option file, then the production-shaped files of
// examples/server-options/ (a Galera node, the thread pool, a synced binary log, performance_schema, strict SQL with
// utf8mb4 and the event scheduler, other plugins), each through the whole lifecycle with its restarts and no
// measurement: 6–16 s a file, 72 s for the six (2026-12-07, load average near 28 on 2 cores; issue 63).

const config = { ...loadEnvironment(), target: 'local' as const };
const traffic = mergeMeasuredTraffic(undefined, undefined, null);
const filesConfig = path.join(tmpdir(), `auditbench-production-files-${process.pid}.config.ts`);
const files = await productionFiles(filesConfig, config);

let scratch = '';
let server: StartedServer | undefined;
const sessions: AccountSession[] = [];
beforeAll(async () => {
  scratch = await mkdtemp(path.join(tmpdir(), 'beside-production-'));
  server = await startServer(config);
}, 60_000);
afterAll(async () => {
  for (const session of sessions.splice(0)) await session.close();
  await dropAccountsAndStop(server, (line) => console.log(`[beside-production] ${line}`));
  if (scratch) await rm(scratch, { recursive: true, force: true });
  await rm(filesConfig, { force: true });
});

describe('beside production', () => {
  // Debian's packaged server file, read from this machine (never copied into the repository), as a run's cnf.
  const debianCnf = '/etc/mysql/mariadb.conf.d/50-server.cnf';
  test.skipIf(!existsSync(debianCnf))(
    "Debian's 50-server.cnf runs with its path options left out by name and its character set kept",
    async () => {
      if (!server) throw new Error('The server did not start; see the first error');
      const configPath = path.join(scratch, 'debian.config.ts');
      await writeFile(
        configPath,
        `export default { runs: [{ plugin: 'server_audit', cnf: { kind: 'option-file', path: '${debianCnf}' } }] };\n`,
      );
      const [run] = await loadRuns({ ...config, configPath, runIds: null }, profiles);
      const leftOut = run?.outsideOptions.leftOut.map((o) => o.name) ?? [];
      console.log(`[beside-production] ${debianCnf}: left out ${leftOut.join(', ')}`);
      expect(leftOut).toEqual(expect.arrayContaining(['pid-file', 'basedir', 'bind-address']));
      const startup = run?.startupOptions ?? {};
      await server.editConfig({ set: startup });
      await server.restart();
      const row = (await server.query('SELECT @@character_set_server AS cs, @@bind_address AS bind')).rows[0];
      expect(row).toEqual({ cs: 'utf8mb4', bind: '127.0.0.1' });
      // The production-shaped files below start from the harness's own server, not Debian's.
      await server.editConfig({ unset: Object.keys(startup) });
    },
    120_000,
  );
});

describe('production-shaped option files: each starts, and its lifecycle has no false failure', () => {
  for (const each of files) {
    test(`${each.file}: ${each.run.title}`, async () => {
      if (!server) throw new Error('The server did not start; see the first error');
      if (sessions.length === 0) {
        const connections = await trafficConnections(server, traffic.accounts);
        sessions.push(accountSession(connections.checks), accountSession(connections.application));
      }
      const pair = sessions as [AccountSession, AccountSession];
      const { checks, inForce } = await serverLifecycle(server, pair, each);
      // The file's options were in force for the checks: the server says so, not the configuration.
      expect(inForce, `${each.file}: the server's answers after the restart check`).toEqual(each.expected);
      const wrong = checks.filter((c) => !c.ok);
      expect(
        wrong.map(({ check, expected, observed, details }) => ({ check, expected, observed, details })),
        `${each.file}: a lifecycle check failed under the file's options`,
      ).toEqual([]);
      const uninstall = checks.find((c) => c.check === 'uninstall');
      console.log(`[beside-production] ${each.file}: uninstall ${JSON.stringify(uninstall?.observed)}`);
    }, 90_000);
  }
});
