import type { Buffer } from 'node:buffer';

import type { ServerFlavor, TargetName as TargetKind } from '../config/lists.ts';
import type { ReceiverControl } from './syslog-receiver.ts';

export type { ReceiverControl, ServerFlavor, TargetKind };

export interface ServerInfo {
  flavor: ServerFlavor;
  /** Version as SELECT VERSION() reports it, e.g. 10.11.19-MariaDB-0+deb12u1. */
  version: string;
  target: TargetKind;
}

/** How a client (mysql2, sysbench) reaches the server. Host is always loopback or a container we started. */
export interface ConnectionOptions {
  host: string;
  port: number;
  user: string;
  password: string;
  socketPath?: string;
}

export type Row = Record<string, unknown>;

export interface QueryResult {
  rows: Row[];
  /** SHOW WARNINGS after the statement: the uninstall checks need them. */
  warnings: { level: string; code: number; message: string }[];
}

export interface ServerFile {
  /** Path relative to the data directory. */
  name: string;
  sizeBytes: number;
  /** Identity that survives a rename (`device:inode`), so rotation can be followed. */
  fileId: string;
}

/** An option line in the server's [mysqld] section; value null for a bare flag. */
export interface ConfigEdit {
  set?: Record<string, string | null>;
  unset?: string[];
}

export interface StartedServer extends AsyncDisposable {
  readonly info: ServerInfo;
  readonly connection: ConnectionOptions;
  /** Runs one statement on a fresh or pooled connection; a server error rejects with errno and message. */
  query(sql: string): Promise<QueryResult>;
  /** Clean shutdown and start again with the current config; rejects with the error-log tail if it does not come back. */
  restart(): Promise<void>;
  /** SIGKILL, then start again (crash recovery). */
  killAndStart(): Promise<void>;
  /** Changes the [mysqld] options used from the next (re)start on. */
  editConfig(edit: ConfigEdit): Promise<void>;
  /** The server binary, where it runs on this machine (local target); absent elsewhere. */
  readonly binaryPath?: string;
  /**
   * A [mysqld] option as the next start and INSTALL PLUGIN read it (undefined: not set), where auditbench writes the
   * server's option file (local target); absent elsewhere.
   */
  configOption?(name: string): string | null | undefined;
  errorLogTail(lines?: number): Promise<string>;
  /** Files under a datadir-relative directory (default the datadir itself), not recursive. */
  listFiles(dir?: string): Promise<ServerFile[]>;
  readFile(path: string): Promise<Buffer>;
  /** Whether a plugin library is in the server's plugin directory. */
  pluginFileExists(soname: string): Promise<boolean>;
  /** Pins every server thread to these CPUs (taskset list, e.g. '0') until the next restart; absent where unsupported. */
  pinCpus?(cpus: string): Promise<void>;
  /** The server's process id on this machine (local target), null when it is not running; absent elsewhere. */
  processId?(): number | null;
  /**
   * The run's own syslog receiver (local target, where the machine gives the server a private /dev/log), for the
   * receiver faults (src/faults/receiver-faults.ts); absent or null elsewhere.
   */
  syslogReceiver?(): ReceiverControl | null;
  /** The server process's resident memory (VmRSS) in bytes, read from /proc; null when it cannot be read here. */
  residentBytes?(): Promise<number | null>;
  /**
   * Resolves once the server's own syslog receiver has written every record the server sent before the call; absent
   * where the server has none (its records then go straight to a file, or nowhere a check reads).
   */
  drainSyslog?(): Promise<void>;
  /** Stops the server and removes everything it created. Idempotent. */
  stop(): Promise<void>;
}
