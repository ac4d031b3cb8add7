import type { AuditEvent } from '../audit-event.ts';

/**
 * Whose a record is, by its connection rather than by the user it names. A plugin that writes a user or host name raw
 * (server_audit's `%.*s`) lets a client put a newline and a whole record line into a failed login's user name: that
 * line then names any account. A record is attributed to its account only when its connection was opened, as that
 * account from that host, by the plugin's own CONNECT (or CHANGEUSER) record, once, or when the server itself lists
 * the connection as that account's (a session opened before the log began); the rest are refused, with why.
 */

/** A connection the server lists as open now (information_schema.PROCESSLIST): its id and account. */
export interface LiveConnection {
  id: number;
  user: string;
}

/** A record that cannot be attributed to the account it names: its index among the events, and why. */
export interface Unattributed {
  index: number;
  reason: string;
}

interface Opening {
  user: string;
  host: string;
  /** What the log says of the connection now. */
  state: 'open' | 'failed' | 'closed' | 'ambiguous';
  /** The record that opened it, as a reason quotes it. */
  first: string;
}

const OPENS = new Set(['CONNECT']);
const CHANGES = new Set(['CHANGEUSER', 'CHANGE_USER']);
const FAILS = new Set(['FAILED_CONNECT']);
const CLOSES = new Set(['DISCONNECT', 'QUIT']);

const who = (e: AuditEvent): string => `${e.user}@${e.host}`;

/**
 * The events from index `from` on (the span a test reads) that cannot be attributed, judged against every event
 * before them too (a connection opened before the span). A log without any CONNECT record (connection events not
 * logged, or a format without connection ids) cannot be judged this way: nothing is refused, and the docs say so.
 * `closedAt`, when given, is the closing marker's connection id: no connection the span opened can be younger.
 */
export function unattributed(
  events: readonly AuditEvent[],
  from: number,
  live: readonly LiveConnection[] = [],
  closedAt: number | null = null,
): Unattributed[] {
  if (!events.some((e) => (OPENS.has(e.operation) || FAILS.has(e.operation)) && e.connectionId !== null))
    return [];
  const connections = new Map<number, Opening>();
  const refused: Unattributed[] = [];
  events.forEach((e, index) => {
    const reason = judge(e, connections, live, closedAt);
    if (reason !== null && index >= from) refused.push({ index, reason });
  });
  return refused;
}

/** Why `e` is not its named account's, or null; updates what is known of its connection. */
function judge(
  e: AuditEvent,
  connections: Map<number, Opening>,
  live: readonly LiveConnection[],
  closedAt: number | null,
): string | null {
  const id = e.connectionId;
  if (id === null) return null;
  const known = connections.get(id);
  if (OPENS.has(e.operation) || FAILS.has(e.operation)) {
    if (closedAt !== null && id > closedAt)
      return `connection ${id} is younger than the closing marker's (${closedAt}): the server never opened it before the marker`;
    // A failed change of user on an open connection is logged as FAILED_CONNECT: it opens nothing.
    if (FAILS.has(e.operation) && known?.state === 'open') return null;
    if (known) {
      known.state = 'ambiguous';
      return `connection ${id} was already opened by ${known.first}: a connection is opened once`;
    }
    const state = OPENS.has(e.operation) ? 'open' : 'failed';
    connections.set(id, { user: e.user, host: e.host, state, first: `${e.operation} ${who(e)}` });
    return null;
  }
  if (!known) return liveAs(e, id, live);
  // server_audit closes a refused login with a DISCONNECT of its own, naming the same account.
  const closesRefused = known.state === 'failed' && CLOSES.has(e.operation) && known.user === e.user;
  if (closesRefused && known.host === e.host) {
    known.state = 'closed';
    return null;
  }
  if (known.state !== 'open') return `connection ${id} is ${describe(known)}`;
  if (CHANGES.has(e.operation)) {
    known.user = e.user;
    known.host = e.host;
    return null;
  }
  if (known.user !== e.user || known.host !== e.host)
    return `connection ${id} was opened by ${known.first}, not ${who(e)}`;
  if (CLOSES.has(e.operation)) known.state = 'closed';
  return null;
}

function describe(known: Opening): string {
  if (known.state === 'failed') return `a refused login (${known.first}): it sends no statement`;
  if (known.state === 'closed') return `closed (opened by ${known.first})`;
  return `opened more than once (first by ${known.first}): whose it is cannot be told`;
}

/** A connection the log never opened: the account's only if the server lists it as that account's now. */
function liveAs(e: AuditEvent, id: number, live: readonly LiveConnection[]): string | null {
  const session = live.find((c) => c.id === id);
  if (session?.user === e.user) return null;
  return session
    ? `connection ${id} is ${session.user}'s on the server, not ${e.user}'s`
    : `no CONNECT record opened connection ${id}, and the server lists no such connection`;
}
