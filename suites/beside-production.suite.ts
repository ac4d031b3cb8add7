import { existsSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { loadEnvironment } from '../src/config/env.ts';
import { profiles } from '../src/profiles/index.ts';
import { loadRuns } from '../src/runs/load-runs.ts';
import { startServer } from '../src/servers/start-server.ts';

// auditbench beside production. A production option file aimed at a live server (its datadir, socket, port, pid file,
// error log and audit log, on every interface) is measured in suites/pack-install.suite.ts: the DBA's `pci` run reads
// such a file there, and its `npx vitest run` must leave the live server as it was and listen on 127.0.0.1 only. Until
// 2026-12-06 this suite ran an `auditbench bench` of its own on such a file (69 s), a run measured a second time.
// Here: Debian's own packaged server file as a run's option file.

const config = { ...loadEnvironment(), target: 'local' as const };

describe('beside production', () => {
  let scratch = '';
  beforeAll(async () => {
    scratch = await mkdtemp(path.join(tmpdir(), 'beside-production-'));
  });
  afterAll(async () => {
    if (scratch) await rm(scratch, { recursive: true, force: true });
  });

  // Debian's packaged server file, read from this machine (never copied into the repository), as a run's cnf.
  const debianCnf = '/etc/mysql/mariadb.conf.d/50-server.cnf';
  test.skipIf(!existsSync(debianCnf))(
    "Debian's 50-server.cnf runs with its path options left out by name and its character set kept",
    async () => {
      const configPath = path.join(scratch, 'debian.config.ts');
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
