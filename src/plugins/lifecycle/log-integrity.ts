import { realClock } from '../../machine/clock.ts';
import { SqlSession } from '../../servers/sql-session.ts';
import { liveConnection } from '../../servers/traffic-accounts.ts';
import { readLogText } from '../log-reader.ts';
import { check, type LifecycleContext, type LifecycleStep, notApplicable, toJson } from './context.ts';

/**
 * Whether a client can write a line of its own into the log. Two login attempts that need no password: a user name,
 * then a database name, each holding a newline, the separator and a whole record line. A plugin that writes them raw
 * (server_audit's `%.*s`) puts that line in its log as a record like any other. That is a finding about the plugin,
 * reported beside the run (reporters/format/format-seed-table.ts), not a failure: the check passes either way.
 */

type Written = 'raw' | 'escaped' | 'not logged';

/** What a record line forged by a client looks like: any account, any statement (the marker keeps it ours). */
export const forgedLine = (marker: string, field: string): string =>
  `${marker},${field},admin,localhost,1,1,QUERY,,'DROP TABLE ${marker}_${field}',0`;

/** The name sent: it closes the line the plugin began, forges one, and opens a line the plugin's fields then end. */
export const craftedName = (marker: string, field: string): string =>
  `${marker},h,1,0,Q,,,0\n${forgedLine(marker, field)}\n${marker},v,u`;

const WAIT_MS = 2_000;

export const logIntegrity: LifecycleStep = {
  id: 'log-integrity',
  title:
    'writes a client-chosen user or database name so that it cannot forge a record (a finding, never a failure)',
  async run(ctx) {
    if (ctx.profile.log.file === null || ctx.profile.log.format === null)
      return notApplicable('log-integrity', 'the plugin writes no log file auditbench can read');
    if (ctx.expected.logUnreadable !== undefined)
      return notApplicable('log-integrity', ctx.expected.logUnreadable);
    const user = craftedName(ctx.marker, 'user');
    const database = craftedName(ctx.marker, 'db');
    const answers = [
      await refusedLogin(ctx, user, undefined),
      await refusedLogin(ctx, `${ctx.marker}-db`, database),
    ];
    const text = await waitForText(ctx, ctx.marker);
    const observed = {
      userName: written(text, ctx.marker, 'user'),
      databaseName: written(text, ctx.marker, 'db'),
    };
    // The lines the two logins left: each piece of a crafted name, and the second login's own user.
    const ours = [`${ctx.marker},`, `${ctx.marker}-db`];
    const records = text.split('\n').filter((line) => ours.some((piece) => line.includes(piece)));
    const server = `${ctx.server.info.flavor} ${ctx.server.info.version}`;
    const finding = findingOf(ctx, observed, server, records);
    // Expected is what was observed: the plugin's behaviour is reported, the run goes on.
    return check(
      'log-integrity',
      observed,
      observed,
      toJson({ sent: { user, database }, answers, server, records, finding }),
    );
  },
};

/** One login with a wrong password (and the database, when given); the server's refusal. */
async function refusedLogin(
  ctx: LifecycleContext,
  user: string,
  database: string | undefined,
): Promise<string> {
  const options = {
    ...liveConnection(ctx.server, user, `${ctx.marker}-wrong`),
    ...(database && { database }),
  };
  const session = new SqlSession(options);
  try {
    await session.query('SELECT 1');
    return 'let in';
  } catch (error) {
    return error instanceof Error ? (error.message.split('\n')[0] ?? '') : String(error);
  } finally {
    await session.close().catch(() => undefined);
  }
}

async function waitForText(ctx: LifecycleContext, needle: string): Promise<string> {
  const clock = ctx.clock ?? realClock;
  const deadline = clock.nowMs() + WAIT_MS;
  for (;;) {
    const text = await readLogText(ctx.server, ctx.profile);
    const both = ['user', 'db'].every((field) => text.includes(`${needle}_${field}`));
    if (both || clock.nowMs() >= deadline) return text;
    await clock.sleepMs(100);
  }
}

/** Raw when the forged line stands as a line of its own; escaped when the name is there but not as a line. */
function written(text: string, marker: string, field: string): Written {
  if (text.split('\n').includes(forgedLine(marker, field))) return 'raw';
  return text.includes(`${marker}_${field}`) ? 'escaped' : 'not logged';
}

function findingOf(
  ctx: LifecycleContext,
  observed: { userName: Written; databaseName: Written },
  server: string,
  records: string[],
): string | null {
  const raw = [
    observed.userName === 'raw' ? 'user name' : null,
    observed.databaseName === 'raw' ? 'database name' : null,
  ].filter((name) => name !== null);
  if (raw.length === 0) return null;
  const forged = forgedLine(ctx.marker, observed.userName === 'raw' ? 'user' : 'db');
  return `${ctx.profile.name} on ${server} writes a login's ${raw.join(' and ')} raw: a refused login (no password needed) made it write ${JSON.stringify(forged)} as a line of its own, among ${records.length} lines (${JSON.stringify(records.join('\n'))}). A SIEM or reader that trusts the log takes such a line as a real record of any account and statement: attribute a record to an account only through the connection its CONNECT record opened, and keep the plugin's port away from untrusted clients.`;
}
