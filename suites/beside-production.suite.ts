import { existsSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { loadEnvironment } from '../src/config/env.ts';
import { profiles } from '../src/profiles/index.ts';
import { loadRuns } from '../src/runs/load-runs.ts';
import { startServer } from '../src/servers/start-server.ts';
import {
  benchBeside,
  expectLiveUnchanged,
  expectMeasuredBeside,
  type LiveServer,
  startLive,
  writeProductionRun,
} from './beside-production/live-server.ts';

// auditbench run beside production: a second mariadbd stands for the live server (its own datadir, socket, port, a
// marker row, server_audit writing into a folder that stands for /var/log/mysql), and the DBA's whole production
// option file points at it, open on every interface. `auditbench bench` on a run reading that file must pass, with
// the plugin's options applied and its log moved into the run's folder, and leave the live server as it was.

const config = { ...loadEnvironment(), target: 'local' as const };

describe('beside production', () => {
  let live: LiveServer;
  beforeAll(async () => {
    live = await startLive(config);
  }, 120_000);
  afterAll(async () => {
    await live?.[Symbol.asyncDispose]();
  });

  test('a production option file aimed at the live server measures its own server and leaves the live one as it was', async () => {
    await writeProductionRun(live);
    // Quiet while the facts are read: nothing of ours touches the live server between the two readings.
    const before = await live.facts();
    const { all, exitCode, listening } = await benchBeside(live, before.pid);
    await expectMeasuredBeside(live, all, exitCode);
    await expectLiveUnchanged(live, before, listening);
  }, 660_000);

  // Debian's packaged server file, read from this machine (never copied into the repository), as a run's cnf.
  const debianCnf = '/etc/mysql/mariadb.conf.d/50-server.cnf';
  test.skipIf(!existsSync(debianCnf))(
    "Debian's 50-server.cnf runs with its path options left out by name and its character set kept",
    async () => {
      const configPath = path.join(live.scratch, 'debian.config.ts');
      await writeFile(
        configPath,
        `export default { runs: [{ plugin: 'server_audit', cnf: { kind: 'option-file', path: '${debianCnf}' } }] };\n`,
      );
      const [run] = await loadRuns({ ...config, configPath, runIds: null }, profiles);
      const leftOut = run?.outsideOptions.leftOut.map((o) => o.name) ?? [];
      console.log(`[beside-production] ${debianCnf}: left out ${leftOut.join(', ')}`);
      expect(leftOut).toEqual(expect.arrayContaining(['pid-file', 'basedir', 'bind-address']));
      await using server = await startServer(config);
      await server.editConfig({ set: run?.startupOptions ?? {} });
      await server.restart();
      const row = (await server.query('SELECT @@character_set_server AS cs, @@bind_address AS bind')).rows[0];
      expect(row).toEqual({ cs: 'utf8mb4', bind: '127.0.0.1' });
    },
    120_000,
  );
});
