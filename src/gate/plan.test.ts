import { expect, test } from 'vitest';
import { profiles } from '../../fixtures/plugins/index.ts';
import type { RunConfig } from '../config/define-config.ts';
import { parseOptionFile } from '../config/option-file.ts';
import { type ResolvedRun, resolveRun } from '../config/runs.ts';
import { comparisonSubject, sqlLiteralOf, unsetOnOneSide } from './arms.ts';
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

test('a changed option-file line is separate runs with restarts', () => {
  const before = run(
    { id: 'audit', cnf: { kind: 'option-file', path: 'audit.cnf' } },
    '[mysqld]\nserver_audit_events=CONNECT\n',
  );
  const after = run(
    { id: 'audit', cnf: { kind: 'option-file', path: 'audit.cnf' } },
    '[mysqld]\nserver_audit_events=CONNECT,QUERY\n',
  );
  expect(designFor(before, after)).toMatchObject({ kind: 'compare', design: 'restarts' });
  // A comment changes the file's hash, so the run is selected, but nothing differs to compare.
  const commented = run(
    { id: 'audit', cnf: { kind: 'option-file', path: 'audit.cnf' } },
    '# ops\n[mysqld]\nserver_audit_events=CONNECT\n',
  );
  expect(designFor(before, commented)).toMatchObject({ kind: 'alone' });
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
  const subject = comparisonSubject(bare, withRotation, 'toggle', {
    server_audit_syslog_info: sqlLiteralOf(''),
  });
  const sqls = (steps: typeof subject.arms.on) => steps.map((s) => (s.kind === 'sql' ? s.sql : s.kind));
  expect(sqls(subject.arms.off)).toContain("SET GLOBAL server_audit_syslog_info = ''");
  expect(sqls(subject.arms.on)).toContain("SET GLOBAL server_audit_syslog_info = 'x'");
  expect(sqls(subject.arms.on).at(-1)).toBe('SET GLOBAL server_audit_logging = ON');
  expect(subject.arms.on.every((s) => s.kind === 'sql')).toBe(true);
});

test("restart arms write their own startup options, remove the other's, and restart first", () => {
  const before = run({ id: 'audit', startupOptions: { server_audit_events: 'CONNECT' } });
  const after = run({
    id: 'audit',
    startupOptions: { server_audit_events: 'CONNECT', server_audit_incl_users: 'app' },
  });
  const subject = comparisonSubject(before, after, 'restarts', {});
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
