import { expect } from 'vitest';
import type { AuditEvent } from '../../src/plugins/audit-event.ts';
import type { LifecycleContext } from '../../src/plugins/lifecycle/index.ts';
import { readLogEvents } from '../../src/plugins/log-reader.ts';
import { runChecks } from './accounts-server.ts';
import type { SeenThread } from './processlist.ts';

// What root may run once a plugin logs: settings, variable/status/plugin reads, (un)install, the restart's probe.
const ADMIN =
  /^\s*(SET GLOBAL |SHOW |SELECT @@|SELECT .* FROM information_schema\.|INSTALL PLUGIN |UNINSTALL PLUGIN |SELECT VERSION\(\)|SELECT 1$|DO 0$)/i;

const rootNotAdmin = (events: AuditEvent[]) =>
  events.filter((e) => e.user === 'root' && e.queryText !== '' && !ADMIN.test(e.queryText));

/** Threads other than the application's: root's admin session may be listed idle or running an admin statement. */
export const notApplication = (seen: SeenThread[], application: string) =>
  seen.filter(
    (t) =>
      t.user !== application &&
      // A connection still logging in is listed under this name for a moment.
      t.user !== 'unauthenticated user' &&
      !(t.user === 'root' && (t.info === null || ADMIN.test(t.info))),
  );

/** Every check passes, and the log shows each check's statements as the checks' account, root only for admin. */
export async function expectChecksAsTheirAccount(ctx: LifecycleContext, checks: string): Promise<void> {
  const results = await runChecks(ctx);
  expect(results.filter((r) => !r.ok)).toEqual([]);
  expect(results.find((r) => r.check === 'logs-query')?.details).toMatchObject({ account: checks });
  // What the rotation check left on disk: its newest files, and every check after it.
  // The log-integrity check's crafted logins name made-up users (each piece holds the marker): not accounts.
  const crafted = (e: AuditEvent) => e.user.includes(ctx.marker) || e.time.includes(ctx.marker);
  const events = (await readLogEvents(ctx.server, ctx.profile)).events.filter((e) => !crafted(e));
  const checksEvents = events.filter((e) => e.queryText.includes(ctx.marker));
  expect(checksEvents.length).toBeGreaterThan(10);
  expect([...new Set(checksEvents.map((e) => e.user))]).toEqual([checks]);
  expect(rootNotAdmin(events)).toEqual([]);
  expect([...new Set(events.map((e) => e.user))].sort()).toEqual([checks, 'root'].sort());
}
