import { randomBytes } from 'node:crypto';
import { execa } from 'execa';
import type { ServerFlavor } from './started-server.ts';

/**
 * A fresh password for one server or account: 24 random URL-safe characters, nothing SQL, a shell or my.cnf treats
 * specially, after `Aa1-`, so that it holds an upper and a lower case letter, a digit and another character every
 * time: a password check plugin that production loads beside the audit plugin (simple_password_check, kept from a
 * DBA's `plugin_load_add`) accepts it at its defaults.
 */
export function newPassword(): string {
  return `Aa1-${randomBytes(18).toString('base64url')}`;
}

const sqlString = (value: string): string => `'${value.replaceAll('\\', '\\\\').replaceAll("'", "''")}'`;

/**
 * The init file of a server's first start: root gets the run's password on the socket (localhost) and on
 * 127.0.0.1 (TCP with skip_name_resolve matches the address, not 'localhost'), and every other account the
 * initialiser made (MariaDB's root@<hostname>, root@::1, anonymous users) is dropped.
 */
export function initSql(flavor: ServerFlavor, password: string): string {
  const pw = sqlString(password);
  const lines = [
    `CREATE USER IF NOT EXISTS 'root'@'127.0.0.1' IDENTIFIED BY ${pw};`,
    `ALTER USER 'root'@'localhost' IDENTIFIED BY ${pw}, 'root'@'127.0.0.1' IDENTIFIED BY ${pw};`,
    "GRANT ALL ON *.* TO 'root'@'127.0.0.1' WITH GRANT OPTION;",
  ];
  if (flavor === 'mariadb') {
    lines.push(
      "DROP USER IF EXISTS 'root'@'::1', ''@'localhost';",
      "EXECUTE IMMEDIATE CONCAT('DROP USER IF EXISTS root@''', @@hostname, ''', ''''@''', @@hostname, '''');",
    );
  }
  return `${lines.join('\n')}\n`;
}

/** The OS account a server runs as when the harness is root: mysqld must not run as root. */
export interface ServerOsUser {
  name: string;
  uid: number;
  gid: number;
}

/** The packaged 'mysql' account when running as root; null (run as ourselves) otherwise. */
export async function serverOsUser(): Promise<ServerOsUser | null> {
  if (process.getuid?.() !== 0) return null;
  const [uid, gid] = await Promise.all(
    ['-u', '-g'].map((flag) => execa('id', [flag, 'mysql'], { reject: false, timeout: 5_000 })),
  );
  if (uid?.exitCode !== 0 || gid?.exitCode !== 0) {
    throw new Error(
      "Running as root, auditbench starts servers as the OS user 'mysql', which does not exist here: install the server package (it creates it) or run as an ordinary user",
    );
  }
  return { name: 'mysql', uid: Number(uid.stdout), gid: Number(gid.stdout) };
}

/** Replaces every occurrence of each secret, so no message, log tail or report can carry one. */
export function redact(text: string, secrets: readonly string[]): string {
  return secrets
    .filter((secret) => secret.length > 0)
    .reduce((out, secret) => out.replaceAll(secret, '***'), text);
}
