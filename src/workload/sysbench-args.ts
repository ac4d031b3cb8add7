import { sysbenchDatabase } from '../config/lists.ts';
import type { ConnectionOptions } from '../servers/started-server.ts';
import type { SysbenchJob } from './workload.ts';

// src/plugins reads the database's name here: it may not import src/config, which imports it.
export { sysbenchDatabase };

function connectionArgs(conn: ConnectionOptions): string[] {
  const target = conn.socketPath
    ? // The client library takes the socket only when the host is 'localhost'; any other host means TCP.
      ['--mysql-host=localhost', `--mysql-socket=${conn.socketPath}`]
    : [`--mysql-host=${conn.host}`, `--mysql-port=${conn.port}`];
  // No --mysql-password: every local user can read a command line. Without it sysbench hands the client library
  // no password, and libmariadb/libmysqlclient then take MYSQL_PWD from the environment (see sysbenchEnv).
  return ['--db-driver=mysql', ...target, `--mysql-user=${conn.user}`];
}

/** The environment sysbench gets the password through; a process's environment is readable by its owner only. */
export function sysbenchEnv(conn: ConnectionOptions): Record<string, string> {
  return { MYSQL_PWD: conn.password };
}

function tableArgs(conn: ConnectionOptions, job: SysbenchJob): string[] {
  for (const field of ['tables', 'tableSize', 'threads'] as const) {
    assertWholeNumber(job, field, job[field]);
  }
  // sysbench refuses an option a script does not declare: a DBA's script gets only what every script accepts.
  if (job.script) {
    return [
      job.script,
      ...connectionArgs(conn),
      `--mysql-db=${sysbenchDatabase}`,
      `--threads=${job.threads}`,
    ];
  }
  return [
    job.test,
    ...connectionArgs(conn),
    `--mysql-db=${sysbenchDatabase}`,
    `--tables=${job.tables}`,
    `--table-size=${job.tableSize}`,
    `--threads=${job.threads}`,
  ];
}

/** Arguments for the script that creates the database: sysbench cannot connect to a database that is not there. */
export function createDatabaseArgs(conn: ConnectionOptions, scriptPath: string): string[] {
  // An empty --mysql-db connects without selecting a database.
  return [scriptPath, ...connectionArgs(conn), '--mysql-db=', `--create-db=${sysbenchDatabase}`, 'prepare'];
}

export function prepareArgs(conn: ConnectionOptions, job: SysbenchJob): string[] {
  return [...tableArgs(conn, job), 'prepare'];
}

export function cleanupArgs(conn: ConnectionOptions, job: SysbenchJob): string[] {
  return [...tableArgs(conn, job), 'cleanup'];
}

export function runArgs(conn: ConnectionOptions, job: SysbenchJob, durationS: number): string[] {
  assertWholeNumber(job, 'durationS', durationS);
  return [
    ...tableArgs(conn, job),
    // Per-second lines are the samples; the parser expects exactly this format.
    '--report-interval=1',
    '--percentile=95',
    // Time-bound, not event-bound: every run of a pair lasts as long, whatever its throughput.
    `--time=${durationS}`,
    '--events=0',
    ...(job.rate === undefined ? [] : [rateArg(job, job.rate)]),
    // sysbench 1.0's default 'special' distribution hammers a few hot rows, adding lock contention
    // that has nothing to do with auditing; uniform spreads access over the whole table.
    '--rand-type=uniform',
    // sysbench's default (auto) prepares each statement on the server; some plugins log an execution twice.
    ...(job.preparedStatements === false ? ['--db-ps-mode=disable'] : []),
    'run',
  ];
}

/**
 * A counted arm (src/counted): exactly `events` transactions from a fixed seed, so every arm sends the same
 * statements; no per-second lines (under valgrind a second holds a few dozen transactions).
 */
export function eventsRunArgs(
  conn: ConnectionOptions,
  job: SysbenchJob,
  run: { events: number; seed: number; timeS?: number },
): string[] {
  if (run.timeS === undefined) assertWholeNumber(job, 'events', run.events);
  return [
    ...tableArgs(conn, job),
    // A time-bound run (the counted warm-up) sends transactions for timeS seconds instead.
    ...(run.timeS === undefined
      ? ['--time=0', `--events=${run.events}`]
      : [`--time=${run.timeS}`, '--events=0']),
    `--rand-seed=${run.seed}`,
    '--rand-type=uniform',
    ...(job.preparedStatements === false ? ['--db-ps-mode=disable'] : []),
    'run',
  ];
}

function rateArg(job: SysbenchJob, rate: number): string {
  assertWholeNumber(job, 'rate', rate);
  return `--rate=${rate}`;
}

function assertWholeNumber(job: SysbenchJob, field: string, value: number): void {
  if (!Number.isInteger(value) || value < 1) {
    throw new Error(`Workload '${job.name}': ${field} must be a whole number of at least 1, got ${value}`);
  }
}
