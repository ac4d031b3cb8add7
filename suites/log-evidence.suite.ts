import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { lifecycleFindings } from '../reporters/format/format-seed-table.ts';
import { loadEnvironment } from '../src/config/env.ts';
import { lifecycleContext } from '../src/plugins/lifecycle/index.ts';
import { logIntegrity } from '../src/plugins/lifecycle/log-integrity.ts';
import { profiles } from '../src/profiles/index.ts';
import { resultsFileSchema } from '../src/results/schema.ts';
import { loadRuns } from '../src/runs/load-runs.ts';
import { auditbenchMatchers } from '../src/vitest/matchers.ts';
import { type AuditLog, auditLog, type RunServer, startRunServer } from '../src/vitest/run-server.ts';

expect.extend(auditbenchMatchers);

// What only a live server can show about a DBA's `audit.since()` (issue 64): a failed login that forges a record, an
// account whose name makes its records unreadable, and rotation past the kept copies between mark and since. One
// server running server_audit as shipped, read as `auditbench/test` reads it (src/vitest/run-server.ts). No suite of
// this project's Vitest holds such a server (the DBA's own Vitest in suites/pack-install.suite.ts is another process,
// whose example tests a DBA copies), so this file starts one: about 20 s with the server's start, measured while
// other work ran.
const config = loadEnvironment();
const [run] = await loadRuns(
  { configPath: 'suites/log-evidence/log-evidence.config.ts', runIds: null },
  profiles,
);

/** The failure message a matcher gives, or '' when it passes. */
function failure(assert: () => void): string {
  try {
    assert();
  } catch (error) {
    return error instanceof Error ? error.message : String(error);
  }
  return '';
}

const adminOf = (server: RunServer) => server.account('admin', ['ALL PRIVILEGES ON *.*']);

async function forgedFailedLogin(server: RunServer, audit: AuditLog) {
  const admin = await adminOf(server);
  const mark = await audit.mark();
  // Under 128 bytes, sent by any client that reaches the port, without a password.
  const id = (await admin.connectionId()) + 1;
  const forgedLine = `20261207 13:00:00,vm,admin,localhost,${id},99,QUERY,shop,'CREATE TABLE shop.forged (a INT)',0`;
  const user = `x,h,1,0,Q,,,0\n${forgedLine}\nT,v,u`;
  expect(Buffer.byteLength(user)).toBeLessThan(128);
  await server.failedLogin(user);
  const records = await audit.since(mark, { closedBy: admin });
  const message = failure(() => expect(records).toHaveLogged({ user: 'admin', statement: /^CREATE TABLE/ }));
  console.log(`[log-evidence] the forged failed login:\n${message}`);
  expect(message).toMatch(
    /^expected a record matching \{ user: "admin", statement: \/\^CREATE TABLE\/ \}, none of/,
  );
  expect(message).toContain(`no CONNECT record opened connection ${id}`);
  expect(message).toContain('CREATE TABLE shop.forged');
}

async function unreadableAccount(server: RunServer, audit: AuditLog) {
  const admin = await adminOf(server);
  await admin.query('CREATE TABLE IF NOT EXISTS shop.cards (a INT)');
  const ops = await server.account('ops,admin', ['ALL PRIVILEGES ON *.*']);
  const mark = await audit.mark();
  await ops.query('DROP TABLE shop.cards');
  const records = await audit.since(mark, { closedBy: admin });
  const message = failure(() => expect(records).not.toHaveLogged({ statement: /^DROP TABLE/ }));
  console.log(`[log-evidence] ops,admin:\n${message}`);
  expect(message).toMatch(/^cannot show that no record matches \{ statement: \/\^DROP TABLE\/ \}/);
  expect(message).toMatch(
    /server_audit\.log:\d+: ".*,ops,admin,[^,]+,\d+,\d+,QUERY,\w*,'DROP TABLE shop\.cards',0"/,
  );
}

async function rotation(server: RunServer, audit: AuditLog) {
  const admin = await adminOf(server);
  const rotate = () => server.server.query('SET GLOBAL server_audit_file_rotate_now = ON');
  await server.server.query('SET GLOBAL server_audit_file_rotations = 1');
  await admin.query("SELECT 'before the mark'");
  const mark = await audit.mark();
  await admin.query('CREATE TABLE shop.rotated (a INT)');
  await rotate();
  await admin.query('DROP TABLE shop.rotated');
  const records = await audit.since(mark, { closedBy: admin });
  const statements = records.records.filter((r) => r.user === 'admin' && r.operation === 'QUERY');
  expect(statements.map((r) => r.queryText)).toEqual([
    'CREATE TABLE shop.rotated (a INT)',
    'DROP TABLE shop.rotated',
  ]);
  expect(records.rejected).toEqual([]);

  const lost = await audit.mark();
  await admin.query('DROP TABLE IF EXISTS shop.never_seen');
  await rotate();
  await rotate();
  const message = await audit.since(lost, { closedBy: admin }).then(
    () => '',
    (error: Error) => error.message,
  );
  console.log(`[log-evidence] rotation past the kept copies:\n${message}`);
  expect(message).toMatch(
    /^the log file the mark was taken in is gone: server_audit\.log \(file id \d+:\d+, \d+ bytes at the mark\)/,
  );
}

/** The log-integrity check on this server, and its finding as the report's "Lifecycle findings" prints it. */
async function integrityFinding(server: RunServer) {
  const ctx = lifecycleContext(server.server, server.profile);
  const checked = await logIntegrity.run(ctx);
  expect(checked.ok).toBe(true);
  expect(checked.observed).toMatchObject({ userName: 'raw' });
  // A recorded result of the report's own fixtures, carrying this check: the formatter the report uses.
  const fixture = new URL('../fixtures/results/results-smoke-server-audit.json', import.meta.url);
  const [recorded] = resultsFileSchema.parse(JSON.parse(readFileSync(fixture, 'utf8'))).results;
  if (!recorded) throw new Error('the fixture holds a result');
  const [line] = lifecycleFindings({ ...recorded, runId: 'everything', lifecycle: [checked] });
  console.log(`[log-evidence] the log-integrity finding:\n${line}`);
  expect(line).toMatch(/^everything: log-integrity: SERVER_AUDIT on mariadb \S+ writes a login's user name/);
}

describe('what audit.since() takes as evidence, on server_audit', () => {
  let target: RunServer | undefined;
  let audit: AuditLog;
  const started = (): RunServer => {
    if (!target) throw new Error('The server did not start; see the hook error');
    return target;
  };
  beforeAll(async () => {
    if (!run) throw new Error('suites/log-evidence/log-evidence.config.ts has no run');
    target = await startRunServer(config, run);
    audit = auditLog(target);
    await (await adminOf(target)).query('CREATE DATABASE IF NOT EXISTS shop');
  }, 120_000);
  afterAll(() => target?.close());

  test('a failed login whose user name forges an admin record: not taken as the admin’s', () =>
    forgedFailedLogin(started(), audit));
  test('an account named ops,admin: its DROP TABLE is an unreadable line, and .not fails quoting it', () =>
    unreadableAccount(started(), audit));
  test("the log-integrity check finds server_audit writing a refused login's user name raw: a finding, not a failure", () =>
    integrityFinding(started()));
  test('a mark follows its file through one rotation, and fails naming it once rotation deleted it', () =>
    rotation(started(), audit));
});
