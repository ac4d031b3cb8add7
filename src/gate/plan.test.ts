import { expect, test } from 'vitest';
import { parseOptionFile } from '../config/option-file.ts';
import { serverValueLiteral, sqlLiteralOf } from '../config/settings.ts';
import { profiles } from '../profiles/index.ts';
import type { RunConfig } from '../runs/define-config.ts';
import { type ResolvedRun, resolveRun } from '../runs/runs.ts';
import { comparisonSubject, unsetOnOneSide } from './arms.ts';
import { describeItem, designFor, differencesOf, planGate } from './plan.ts';

const run = (config: Partial<RunConfig>, cnf?: string): ResolvedRun =>
  resolveRun(
    { plugin: 'server_audit', ...config } as RunConfig,
    profiles[(config.plugin as keyof typeof profiles | undefined) ?? 'server_audit'],
    cnf === undefined ? null : { path: 'audit.cnf', text: cnf, parsed: parseOptionFile(cnf, 'audit.cnf') },
  );

const connect = run({ id: 'audit', settings: { server_audit_events: 'CONNECT' } });
const queries = run({ id: 'audit', settings: { server_audit_events: 'CONNECT,QUERY' } });
const general = run({ id: 'general', plugin: 'general_log' } as Partial<RunConfig>);

test('differences name each changed entry, base → head, with (default) for an unset side', () => {
  expect(differencesOf({ a: '1', b: '2' }, { a: '1', b: '3', c: '4' })).toEqual([
    'b: 2 → 3',
    'c: (default) → 4',
  ]);
});

test('a change of SET GLOBAL settings only is one toggled run with base and head as its arms', () => {
  const design = designFor(connect, queries);
  expect(design).toMatchObject({ kind: 'compare', design: 'toggle' });
  expect(design.kind === 'compare' && design.differences).toEqual([
    "server_audit_events: 'CONNECT' → 'CONNECT,QUERY'",
  ]);
});

const fromCnf = (text: string) =>
  run({ id: 'audit', cnf: { kind: 'option-file', path: 'ops/audit.cnf' } }, text);
const ddl = fromCnf('[mariadb]\nserver_audit_events = QUERY_DDL\nserver_audit_file_rotations = 3\n');

test("a changed option-file line of the plugin's own: the profile expects the toggled design, the server confirms", () => {
  const dml = fromCnf(
    '[mariadb]\nserver_audit_events = QUERY_DDL,QUERY_DML\nserver_audit_file_rotations = 3\n',
  );
  const design = designFor(ddl, dml);
  expect(design).toMatchObject({
    kind: 'compare',
    design: 'toggle',
    differences: ['server_audit_events: QUERY_DDL → QUERY_DDL,QUERY_DML'],
  });
  expect(design.kind === 'compare' && design.why).toMatch(
    /^startup options differ: server_audit_events is SERVER_AUDIT's own, dynamic and global on MariaDB: expects one toggled run/,
  );
});

test('a changed server option the profile does not know: restarts expected, the server to decide', () => {
  const buffer = fromCnf(
    '[mariadb]\nserver_audit_events = QUERY_DDL\nserver_audit_file_rotations = 3\ninnodb_log_buffer_size = 32M\n',
  );
  expect(designFor(ddl, buffer)).toMatchObject({
    kind: 'compare',
    design: 'restarts',
    why: expect.stringMatching(/^startup options differ: innodb_log_buffer_size is not SERVER_AUDIT's/),
  });
});

test('a comment, blank lines or reordered lines select nothing, and the plan says why', () => {
  const reordered = fromCnf(
    '# kept by ops\n[mariadb]\n\nserver_audit_file_rotations = 3   # three\nserver_audit_events = QUERY_DDL\n',
  );
  expect(reordered.optionFile?.sha256).not.toBe(ddl.optionFile?.sha256);
  expect(planGate([reordered], [ddl], null)).toEqual([
    {
      kind: 'unchanged',
      runId: 'audit',
      why: 'audit.cnf changed, but no option it sets did (a comment, blank lines or their order): nothing to measure',
    },
  ]);
  expect(describeItem({ kind: 'unchanged', runId: 'audit', why: 'x' })).toBe('run audit: x');
  // A changed value still selects the run.
  const five = fromCnf('[mariadb]\nserver_audit_events = QUERY_DDL\nserver_audit_file_rotations = 5\n');
  expect(planGate([five], [ddl], null)).toEqual([
    expect.objectContaining({ kind: 'compare', runId: 'audit' }),
  ]);
});

test('a run with no base version, or another plugin, is measured alone against its limit', () => {
  const items = planGate([queries, general], [connect], null);
  expect(items.map((i) => [i.runId, i.kind])).toEqual([
    ['audit', 'compare'],
    ['general', 'alone'],
  ]);
  expect(describeItem(items[1] as (typeof items)[1])).toBe(
    'run general: new run; no base version: measured against its limit',
  );
  expect(designFor(connect, { ...general, id: 'audit' })).toMatchObject({ kind: 'alone' });
});

test('unchanged runs are not selected unless every run is, and then say why', () => {
  expect(planGate([connect], [connect], null)).toEqual([]);
  const all = planGate([connect], [connect], 'the installed auditbench changed (0.1.0 → 0.2.0)');
  expect(all).toEqual([
    expect.objectContaining({ kind: 'alone', because: 'the installed auditbench changed (0.1.0 → 0.2.0)' }),
  ]);
});

test("toggled arms set both sides' settings, the server's value where one leaves it unset", () => {
  const bare = run({ id: 'audit' });
  const withRotation = run({ id: 'audit', settings: { server_audit_syslog_info: 'x' } });
  expect(unsetOnOneSide(bare, withRotation)).toEqual(['server_audit_syslog_info']);
  const subject = comparisonSubject(bare, withRotation, {
    design: 'toggle',
    serverValues: { server_audit_syslog_info: sqlLiteralOf('') },
  });
  const sqls = (steps: typeof subject.arms.on) => steps.map((s) => (s.kind === 'sql' ? s.sql : s.kind));
  expect(sqls(subject.arms.off)).toContain("SET GLOBAL server_audit_syslog_info = ''");
  expect(sqls(subject.arms.on)).toContain("SET GLOBAL server_audit_syslog_info = 'x'");
  expect(sqls(subject.arms.on).at(-1)).toBe('SET GLOBAL server_audit_logging = ON');
  expect(subject.arms.on.every((s) => s.kind === 'sql')).toBe(true);
});

test('toggled option-file options: each arm sets its own value, a SET GLOBAL setting of the run wins', () => {
  const switched = { base: { server_audit_events: "'QUERY_DDL'" }, head: { server_audit_events: 'DEFAULT' } };
  const withSetting = run({ id: 'audit', settings: { server_audit_events: 'CONNECT' } });
  const subject = comparisonSubject(ddl, withSetting, { design: 'toggle', serverValues: {}, switched });
  const sqls = (steps: typeof subject.arms.on) => steps.map((s) => (s.kind === 'sql' ? s.sql : s.kind));
  expect(sqls(subject.arms.off)).toContain("SET GLOBAL server_audit_events = 'QUERY_DDL'");
  expect(sqls(subject.arms.on)).toContain("SET GLOBAL server_audit_events = 'CONNECT'");
  expect(sqls(subject.arms.on)).not.toContain('SET GLOBAL server_audit_events = DEFAULT');
  // With restarts the arms' my.cnf carries them instead.
  const restarts = comparisonSubject(ddl, withSetting, { design: 'restarts', serverValues: {}, switched });
  expect(sqls(restarts.arms.off)).not.toContain("SET GLOBAL server_audit_events = 'QUERY_DDL'");
});

test("restart arms write their own startup options, remove the other's, and restart first", () => {
  const before = run({ id: 'audit', startupOptions: { server_audit_events: 'CONNECT' } });
  const after = run({
    id: 'audit',
    startupOptions: { server_audit_events: 'CONNECT', server_audit_incl_users: 'app' },
  });
  const subject = comparisonSubject(before, after, { design: 'restarts', serverValues: {} });
  expect(subject.arms.off.slice(0, 2)).toEqual([
    {
      kind: 'config',
      edit: { set: { 'loose-server_audit_events': 'CONNECT' }, unset: ['loose-server_audit_incl_users'] },
    },
    { kind: 'restart' },
  ]);
  expect(subject.arms.on[0]).toEqual({
    kind: 'config',
    edit: {
      set: { 'loose-server_audit_events': 'CONNECT', 'loose-server_audit_incl_users': 'app' },
      unset: [],
    },
  });
});

test.for([
  ['text', "'text'"],
  ["it's", "'it''s'"],
  [42, '42'],
  [null, 'NULL'],
] as const)('server value %s is written %s', ([value, literal]) => {
  expect(sqlLiteralOf(value)).toBe(literal);
});

// Found by the Action's pull request in suites/gate-from-repo.suite.ts (2026-12-04): the head left
// server_audit_query_log_limit unset, its arm set the server's own '1024' back quoted, and MariaDB refused it (1232).
test.each([
  ['1024', '1024'],
  [1024, '1024'],
  [BigInt('18446744073709551615'), '18446744073709551615'],
  ['-1', '-1'],
  ['0.5', '0.5'],
  ['CONNECT,QUERY', "'CONNECT,QUERY'"],
  ['', "''"],
  ["/var/log/it's", "'/var/log/it''s'"],
  [null, 'NULL'],
])('a value read back from the server, %s, is set again as %s', (value, literal) => {
  expect(serverValueLiteral(value)).toBe(literal);
});
