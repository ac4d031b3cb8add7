import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { Environment } from '../../src/config/env.ts';
import { lifecycleContext, lifecycleSteps } from '../../src/plugins/lifecycle/index.ts';
import { profiles } from '../../src/profiles/index.ts';
import type { LifecycleCheck } from '../../src/results/lifecycle-check.ts';
import { loadRuns } from '../../src/runs/load-runs.ts';
import type { ResolvedRun } from '../../src/runs/runs.ts';
import type { AccountSession } from '../../src/servers/account-session.ts';
import type { StartedServer } from '../../src/servers/started-server.ts';

const FOLDER = path.resolve(import.meta.dirname, '../../examples/server-options');

/**
 * Each file of examples/server-options/ and what the server must answer once its options are in force: server
 * variables (@@name, as text) and plugins (information_schema.PLUGINS status). unix_socket is Debian's built-in;
 * simple_password_check is loaded by the file's plugin_load_add, kept because its library is in the plugin directory.
 */
const FILES: Record<string, Record<string, string>> = {
  'galera-node': {
    thread_handling: 'pool-of-threads',
    max_connections: '1000',
    log_bin: 'ON',
    server_id: '11',
  },
  'thread-pool': {
    thread_handling: 'pool-of-threads',
    thread_pool_max_threads: '500',
    max_connections: '1000',
  },
  'binlog-sync': {
    log_bin: 'ON',
    sync_binlog: '1',
    innodb_flush_log_at_trx_commit: '1',
    binlog_format: 'ROW',
  },
  'performance-schema': { performance_schema: 'ON' },
  'strict-utf8mb4': {
    sql_mode: 'STRICT_TRANS_TABLES,STRICT_ALL_TABLES,ERROR_FOR_DIVISION_BY_ZERO,NO_ENGINE_SUBSTITUTION',
    event_scheduler: 'ON',
    character_set_server: 'utf8mb4',
    // Left out of the file with its reason: the datadir was initialised before the file's options came in.
    lower_case_table_names: '0',
  },
  'other-plugins': { 'plugin:unix_socket': 'ACTIVE', 'plugin:simple_password_check': 'ACTIVE' },
};

export interface ProductionFile {
  file: string;
  run: ResolvedRun;
  /** What the server answers once the file's options are in force. */
  expected: Record<string, string>;
}

/** The files as a DBA's runs: one configuration naming each with `cnf`, loaded as `bench` loads it. */
export async function productionFiles(
  configPath: string,
  config: Pick<Environment, 'mysqldPath' | 'searchPath'>,
): Promise<ProductionFile[]> {
  const runs = Object.keys(FILES).map(
    (id) =>
      `{ id: '${id}', plugin: 'server_audit', cnf: { kind: 'option-file', path: '${FOLDER}/${id}.cnf' } }`,
  );
  await writeFile(configPath, `export default { runs: [\n${runs.join(',\n')}\n] };\n`);
  const loaded = await loadRuns({ ...config, configPath, runIds: null }, profiles);
  return loaded.map((run) => ({ file: `${run.id}.cnf`, run, expected: FILES[run.id] ?? {} }));
}

/** The names' values as text: `plugin:x` reads x's PLUGINS status, any other name the server variable. */
async function answers(server: StartedServer, names: string[]): Promise<Record<string, string>> {
  const columns = names.map((name, i) =>
    name.startsWith('plugin:')
      ? `(SELECT PLUGIN_STATUS FROM information_schema.PLUGINS WHERE PLUGIN_NAME = '${name.slice(7)}') AS c${i}`
      : `CONCAT(@@GLOBAL.${name}) AS c${i}`,
  );
  const row = (await server.query(`SELECT ${columns.join(', ')}`)).rows[0] ?? {};
  return Object.fromEntries(names.map((name, i) => [name, String(row[`c${i}`] ?? 'absent')]));
}

/**
 * Every lifecycle check in order (the install writes the file's options and restarts, the uninstall takes them out and
 * restarts), with the server's answers read after the restart check, while the options are in force.
 */
export async function serverLifecycle(
  server: StartedServer,
  [checks, application]: [AccountSession, AccountSession],
  { run, expected }: ProductionFile,
): Promise<{ checks: LifecycleCheck[]; inForce: Record<string, string> }> {
  const ctx = lifecycleContext(server, run.profile, { checks, application });
  const results: LifecycleCheck[] = [];
  let inForce: Record<string, string> = {};
  for (const step of [...lifecycleSteps.beforeMeasure, ...lifecycleSteps.afterMeasure]) {
    results.push(await step.run(ctx));
    if (step.id === 'restart') inForce = await answers(server, Object.keys(expected));
  }
  return { checks: results, inForce };
}
