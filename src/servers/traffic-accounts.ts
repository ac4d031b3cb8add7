import { sysbenchDatabase } from '../config/lists.ts';
import { newPassword, redact } from './server-account.ts';
import { SqlError } from './sql-session.ts';
import type { ConnectionOptions, StartedServer } from './started-server.ts';

/** The accounts a run's traffic logs in as (ResolvedRun.traffic.accounts); 'root' means the server's own admin. */
export interface TrafficAccounts {
  application: string;
  checks: string;
}

/** How sysbench and the checks reach the server, each as its own account. */
export interface TrafficConnections {
  application: ConnectionOptions;
  checks: ConnectionOptions;
}

export const ROOT_ACCOUNT = 'root';

/**
 * What each role may do, and why. sysbench creates database `auditbench` if missing, creates, fills, indexes and drops
 * its sbtest tables, and runs OLTP on them. The checks send marker SELECTs (no privilege), statements that fail on a
 * missing table in that database (SELECT there, so the server answers 1146 rather than 1142 "denied"), and the masking
 * check's CREATE USER / DROP USER of a throwaway account (the CREATE USER privilege, nothing narrower allows it).
 */
const GRANTS: Record<keyof TrafficAccounts, string[]> = {
  application: [`SELECT, INSERT, UPDATE, DELETE, CREATE, DROP, INDEX ON \`${sysbenchDatabase}\`.*`],
  checks: [`SELECT ON \`${sysbenchDatabase}\`.*`, 'CREATE USER ON *.*'],
};

// '%' for TCP; 'localhost' too, so an anonymous ''@'localhost' on an external box cannot shadow the account.
const HOSTS = ['%', 'localhost'] as const;

const ER_CANNOT_USER = 1396;

/** Per server: the accounts created on it, their passwords (random, never printed) and what each was granted. */
const created = new WeakMap<StartedServer, Map<string, { password: string; grants: Set<string> }>>();

const quote = (value: string): string => `'${value.replaceAll('\\', '\\\\').replaceAll("'", "''")}'`;

/**
 * The traffic's connections on this server, creating each account the first time a server sees it (root runs the
 * CREATE USER and GRANTs; they survive restarts). An account that already exists on the server is refused rather
 * than taken over: on an external box it may be a real one.
 */
export async function trafficConnections(
  server: StartedServer,
  accounts: TrafficAccounts,
): Promise<TrafficConnections> {
  const roles = (Object.keys(GRANTS) as (keyof TrafficAccounts)[]).filter(
    (r) => accounts[r] !== ROOT_ACCOUNT,
  );
  const byName = new Map<string, string[]>();
  for (const role of roles)
    byName.set(accounts[role], [...(byName.get(accounts[role]) ?? []), ...GRANTS[role]]);
  for (const [name, grants] of byName) await ensureAccount(server, name, grants);
  const as = (name: string): ConnectionOptions =>
    name === ROOT_ACCOUNT ? server.connection : liveConnection(server, name, passwordOf(server, name));
  return { application: as(accounts.application), checks: as(accounts.checks) };
}

/**
 * An account's connection to wherever the server is now: a container's restart maps its port anew, so host, port and
 * socket are read from the server at each use (a spread or a new session takes them then), not copied once.
 */
export function liveConnection(
  server: Pick<StartedServer, 'connection'>,
  user: string,
  password: string,
): ConnectionOptions {
  const live = { user, password } as ConnectionOptions;
  for (const key of ['host', 'port', 'socketPath'] as const) {
    if (key === 'socketPath' && server.connection.socketPath === undefined) continue;
    Object.defineProperty(live, key, { enumerable: true, get: () => server.connection[key] });
  }
  return live;
}

function passwordOf(server: StartedServer, name: string): string {
  const account = created.get(server)?.get(name);
  if (account === undefined) throw new Error(`Account '${name}' was not created on this server`);
  return account.password;
}

async function ensureAccount(server: StartedServer, name: string, grants: string[]): Promise<void> {
  const known = created.get(server) ?? new Map<string, { password: string; grants: Set<string> }>();
  created.set(server, known);
  let account = known.get(name);
  if (account === undefined) {
    account = { password: await createAccount(server, name), grants: new Set() };
    known.set(name, account);
  }
  // A name given to another role later (e.g. checks = application) gets that role's grants as well.
  const missing = grants.filter((g) => !account.grants.has(g));
  for (const host of HOSTS) {
    await asRoot(
      server,
      missing.map((g) => `GRANT ${g} TO ${quote(name)}@'${host}'`),
      account.password,
    );
  }
  for (const g of missing) account.grants.add(g);
}

async function createAccount(server: StartedServer, name: string): Promise<string> {
  const fresh = newPassword();
  const users = HOSTS.map((host) => `${quote(name)}@'${host}' IDENTIFIED BY ${quote(fresh)}`).join(', ');
  try {
    await server.query(`CREATE USER ${users}`);
  } catch (error) {
    if (error instanceof SqlError && error.errno === ER_CANNOT_USER) {
      throw new Error(
        `traffic.accounts: account '${name}' already exists on the server at ${server.connection.host}:${server.connection.port}; auditbench creates and drops the traffic's accounts itself, so name one that does not exist (or drop it)`,
      );
    }
    throw new Error(`Creating account '${name}' failed: ${redact(String(error), [fresh])}`);
  }
  return fresh;
}

async function asRoot(server: StartedServer, statements: string[], secret: string): Promise<void> {
  for (const sql of statements) {
    await server.query(sql).catch((error: unknown) => {
      throw new Error(redact(error instanceof Error ? error.message : String(error), [secret]), {
        cause: error,
      });
    });
  }
}

/** Drops every account trafficConnections created on this server (an external box keeps none of them). */
export async function dropTrafficAccounts(server: StartedServer): Promise<string[]> {
  const names = [...(created.get(server)?.keys() ?? [])];
  for (const name of names) {
    await server.query(`DROP USER IF EXISTS ${HOSTS.map((h) => `${quote(name)}@'${h}'`).join(', ')}`);
  }
  created.delete(server);
  return names;
}

/** The passwords of the accounts made on this server, for redacting anything that could carry one. */
export const accountSecrets = (server: StartedServer): string[] =>
  [...(created.get(server)?.values() ?? [])].map((a) => a.password);

/**
 * A suite's last step: drops the traffic's accounts, then stops the server. A server that died, or that a step left
 * down, cannot drop them; that is logged, and the server is still stopped.
 */
export async function dropAccountsAndStop(
  server: StartedServer | undefined,
  log: (message: string) => void,
): Promise<void> {
  if (server) {
    await dropTrafficAccounts(server).catch((error: unknown) =>
      log(`could not drop the traffic's accounts: ${error instanceof Error ? error.message : String(error)}`),
    );
  }
  await server?.stop();
}
