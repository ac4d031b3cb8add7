/** A client as the server prints it in general-log style records: `priv_user[user] @ host [ip]`. */
export interface UserHost {
  /** The name the client logged in with; the privilege user when the login name is empty. */
  user: string;
  /** The host name, or the IP when the name is empty (no name resolution). */
  host: string;
}

const USER_HOST = /^([^[\]]*)\[([^\]]*)\] @ (\S*) \[([^\]]*)\]$/;

/**
 * Splits the server's account string (MariaDB and MySQL `make_user_name`). The login name is the bracketed one: for a
 * failed login the privilege user is still empty, as in `[u] @ localhost [127.0.0.1]`.
 */
export function parseUserHost(text: string): UserHost | null {
  const match = USER_HOST.exec(text);
  if (!match) return null;
  const [, privUser = '', user = '', host = '', ip = ''] = match;
  return { user: user || privUser, host: host || ip };
}
