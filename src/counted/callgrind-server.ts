import { readdir, readFile, rm } from 'node:fs/promises';
import path from 'node:path';
import { type Clock, realClock } from '../machine/clock.ts';
import type { LaunchWrapper } from '../servers/server-process.ts';
import type { StartedServer } from '../servers/started-server.ts';
import { type CallgrindDump, parseCallgrindDump } from './callgrind-dump.ts';
import { PINNED_GLIBC_TUNABLES } from './identity.ts';
import { isThreadPool } from './thread-handling.ts';

/** The statement that zeroes callgrind's counters: `DO SLEEP(0)` enters Item_func_sleep::val_int. */
export const ZERO_MARKER = 'DO SLEEP(0)';
/** The statement that writes them out: `SELECT BENCHMARK(0,1)` enters Item_func_benchmark::val_int. */
export const DUMP_MARKER = 'SELECT BENCHMARK(0,1)';

/**
 * Where a connection's work starts, by thread handling. --toggle-collect flips collection on entry and off on
 * exit, so each list names entry points that never nest: a connection thread (one-thread-per-connection) is counted
 * from its top function, which also holds its login, its failed logins and its disconnect, not only its commands.
 * The thread pool runs each of a connection's events (its login, a request, its end) in one call of `tp_callback`, an
 * exported symbol: the static functions it calls have no name in a stripped server, so callgrind never enters them.
 */
export function toggleFunctions(threadHandling: string | null | undefined): string[] {
  if (isThreadPool(threadHandling)) return ['tp_callback*'];
  return ['do_handle_one_connection*'];
}

/**
 * An arm's dump that counted no instruction: no toggle function ran, so the server's binary does not name them and
 * every figure would read zero. Thrown, naming the functions, rather than recorded.
 */
export function checkCollected(instructions: number, threadHandling: string | null | undefined): void {
  if (instructions > 0) return;
  const toggles = toggleFunctions(threadHandling).map((fn) => `--toggle-collect=${fn}`);
  throw new Error(
    `callgrind counted no instruction in the arm: none of ${toggles.join(', ')} ran (thread_handling ${threadHandling ?? 'default'}); the server's binary may not name them (static or inlined): check with nm -D`,
  );
}

export interface CallgrindOptions {
  /** The server's private folder, writable by its OS user: the dumps go there. */
  dir: string;
  threadHandling?: string | null;
  /** For a plugin that patches the server's code at run time (McAfee's): valgrind then re-checks all code. */
  selfModifyingCode?: boolean;
}

export const dumpBase = (dir: string): string => path.join(dir, 'callgrind.out');

/** valgrind's command line for a counted server; the server binary and its --defaults-file follow it. */
export function callgrindWrapper(opts: CallgrindOptions): LaunchWrapper {
  return {
    command: 'valgrind',
    args: [
      '--tool=callgrind',
      // vgdb cannot reach the process here, and callgrind_control would need it: markers replace it.
      '--vgdb=no',
      '--dump-instr=no',
      '--dump-line=no',
      ...toggleFunctions(opts.threadHandling).map((fn) => `--toggle-collect=${fn}`),
      '--zero-before=Item_func_sleep::val_int*',
      '--dump-before=Item_func_benchmark::val_int*',
      `--callgrind-out-file=${dumpBase(opts.dir)}`,
      ...(opts.selfModifyingCode ? ['--smc-check=all'] : []),
    ],
    env: { GLIBC_TUNABLES: PINNED_GLIBC_TUNABLES },
  };
}

/**
 * [mysqld] options of a counted server, `loose-` so a server without one ignores it. Each removes a source of
 * instructions that depend on timing or history rather than on the statements: the run's own options, applied by its
 * install steps afterwards, win where they set the same.
 */
export function countedServerOptions(bufferPoolBytes: number): Record<string, string> {
  const pool = String(bufferPoolBytes);
  return {
    // InnoDB reserves address space for the largest pool it may grow to (8 TB by default): valgrind cannot map it.
    'loose-innodb_buffer_pool_size': pool,
    'loose-innodb_buffer_pool_size_max': pool,
    // valgrind does not support io_uring/libaio's submissions reliably.
    'loose-innodb_use_native_aio': '0',
    // Background work that a connection thread may be charged for, at times that vary run to run.
    'loose-innodb_stats_auto_recalc': 'OFF',
    'loose-innodb_adaptive_hash_index': 'OFF',
    'loose-query_cache_type': 'OFF',
    'loose-query_cache_size': '0',
    // Spin waits count instructions in proportion to how long another thread held a latch.
    'loose-innodb_spin_wait_delay': '0',
  };
}

/** The buffer pool a counted server gets: the tables' rows at ~250 bytes each, twice over, at least 128 MiB. */
export function bufferPoolFor(tables: number, tableSize: number): number {
  const mib = 1024 * 1024;
  const want = tables * tableSize * 250 * 2;
  return Math.max(128 * mib, Math.ceil(want / (128 * mib)) * 128 * mib);
}

export async function listDumps(dir: string): Promise<Set<string>> {
  const base = path.basename(dumpBase(dir));
  const names = await readdir(dir);
  return new Set(names.filter((n) => n.startsWith(`${base}.`)));
}

/**
 * Removes a former process's dumps. callgrind numbers each process's dumps from 1 under one file name, so after a
 * restart the new process's first dump would overwrite the old first one and never read as new.
 */
export async function clearDumps(dir: string): Promise<void> {
  for (const name of await listDumps(dir)) await rm(path.join(dir, name), { force: true });
}

/** The dump the marker asked for: a new file, read once callgrind has finished writing it (its `totals:` line). */
export async function waitForNewDump(
  dir: string,
  before: Set<string>,
  clock: Clock = realClock,
): Promise<CallgrindDump> {
  for (let i = 0; i < 600; i++) {
    const fresh = [...(await listDumps(dir))].filter((n) => !before.has(n));
    if (fresh.length > 1)
      throw new Error(`callgrind wrote ${fresh.length} dumps for one marker: ${fresh.join(', ')}`);
    const [name] = fresh;
    if (name) {
      const text = await readFile(path.join(dir, name), 'utf8');
      if (/^totals:/m.test(text)) return parseCallgrindDump(text);
    }
    await clock.sleepMs(100);
  }
  throw new Error(`callgrind wrote no dump in ${dir} within 60 s of '${DUMP_MARKER}'`);
}

/**
 * Waits (up to 5 minutes) for InnoDB to reload the pages it dumped at shutdown. The arms would count the reload's
 * reads otherwise; what it found is said either way (a warm-up then fills the pool), never passed over in silence.
 */
export async function waitForPoolLoad(
  server: StartedServer,
  clock: Clock = realClock,
): Promise<{ loaded: boolean; waitedS: number; status: string }> {
  const started = clock.nowMs();
  const waited = () => Math.round((clock.nowMs() - started) / 1000);
  let status = '';
  for (let i = 0; i < 600; i++) {
    const { rows } = await server.query("SHOW STATUS LIKE 'Innodb_buffer_pool_load_status'");
    status = String(rows[0]?.Value ?? '');
    if (/completed/i.test(status)) return { loaded: true, waitedS: waited(), status };
    if (status === '' || /not started|aborted|error|fail/i.test(status)) {
      const why = status === '' ? 'the server reports no load status' : status;
      return { loaded: false, waitedS: waited(), status: `${why}; the warm-up arm fills the pool instead` };
    }
    await clock.sleepMs(500);
  }
  return {
    loaded: false,
    waitedS: waited(),
    status: `still loading after ${waited()} s (${status}); the warm-up arm fills the rest`,
  };
}
