import { expect, test } from 'vitest';
import { applyEdit, renderMyCnf } from './my-cnf.ts';

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

test.for([
  ['init_connect', 'x\nplugin_load_add=evil.so'],
  ['a\nb', '1'],
  ['!include', null],
])('a line break or a non-name never reaches my.cnf: %j', ([name, value]) => {
  expect(() => renderMyCnf(new Map([[name as string, value as string | null]]))).toThrow(/my\.cnf option/);
});
