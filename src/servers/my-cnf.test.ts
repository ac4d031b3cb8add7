import { expect, test } from 'vitest';
import { applyEdit, parseMysqldGroup, renderMyCnf } from './my-cnf.ts';

test('edits replace options whatever their dash style, and unset removes them', () => {
  const base = new Map<string, string | null>([
    ['port', '3306'],
    ['skip_name_resolve', null],
  ]);
  const edited = applyEdit(base, {
    set: { 'audit-uninstall-plugin': '1', port: '4000' },
    unset: ['skip-name-resolve'],
  });
  expect(renderMyCnf(edited)).toBe(
    '# written by auditbench; every run gets its own\n[mysqld]\nport=4000\naudit_uninstall_plugin=1\n',
  );
  expect(renderMyCnf(applyEdit(edited, { unset: ['audit_uninstall_plugin'] }))).not.toContain(
    'audit_uninstall',
  );
  expect(base.size).toBe(2);
});

test.for<[string, Record<string, string | null>]>([
  ['[mysqld]\nloose-audit_offsets=1, 2,3\n', { 'loose-audit_offsets': '1, 2,3' }],
  [
    '# offsets\n[client]\nport=1\n[mysqld]\nskip-name-resolve\n; note\nport = 4000\n',
    { 'skip-name-resolve': null, port: '4000' },
  ],
  ['port=1\n', {}],
])('the [mysqld] group of %j', ([text, options]) => {
  expect(parseMysqldGroup(text)).toEqual(options);
});
