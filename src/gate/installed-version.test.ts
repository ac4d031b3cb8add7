import { expect, test } from 'vitest';
import { installedAuditbench, versionChange } from './installed-version.ts';

const lock = (version: string, integrity: string) =>
  JSON.stringify({ packages: { '': {}, 'node_modules/auditbench': { version, integrity } } });

test('the lockfile entry names the install, version and integrity', () => {
  expect(installedAuditbench(lock('0.1.0', 'sha512-a'), null)).toBe('0.1.0 sha512-a');
});

test("without a lockfile entry, package.json's spec names it; neither gives null", () => {
  const manifest = JSON.stringify({ devDependencies: { auditbench: 'file:auditbench-0.1.0.tgz' } });
  expect(installedAuditbench(null, manifest)).toBe('file:auditbench-0.1.0.tgz');
  expect(installedAuditbench('not json', '{}')).toBeNull();
});

test.for([
  ['0.1.0 sha512-a', '0.1.0 sha512-a', null],
  ['0.1.0 sha512-a', '0.2.0 sha512-b', 'the installed auditbench changed (0.1.0 → 0.2.0)'],
  ['0.1.0 sha512-a', '0.1.0 sha512-b', 'the installed auditbench changed (0.1.0, a different build)'],
  [null, '0.1.0 sha512-a', 'the installed auditbench changed (none → 0.1.0)'],
] as const)('%s → %s: %s', ([base, head, reason]) => {
  expect(versionChange(base, head)).toBe(reason);
});
