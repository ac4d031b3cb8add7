import { expect, test } from 'vitest';
import { perconaAuditLog } from '../../fixtures/plugins/percona-audit-log.ts';
import { serverAudit } from '../../fixtures/plugins/server-audit.ts';
import type { PluginProfile } from '../plugins/profile.ts';
import { canonicalJson, configHash } from './config-hash.ts';

test('the hash is 12 hex digits and the same for the same profile', () => {
  expect(configHash(serverAudit)).toMatch(/^[0-9a-f]{12}$/);
  expect(configHash({ ...serverAudit })).toBe(configHash(serverAudit));
});

test('key order does not matter, values do', () => {
  expect(canonicalJson({ b: 1, a: [{ y: 2, x: null }] })).toBe(
    canonicalJson({ a: [{ x: null, y: 2 }], b: 1 }),
  );
  expect(canonicalJson({ a: 1, skipped: undefined })).toBe('{"a":1}');
  const reordered = Object.fromEntries(Object.entries(serverAudit.measureSettings).reverse());
  expect(configHash({ ...serverAudit, measureSettings: reordered })).toBe(configHash(serverAudit));
});

test.for<[string, PluginProfile]>([
  ['measureSettings', { ...serverAudit, measureSettings: { server_audit_events: "'QUERY'" } }],
  ['install steps', { ...serverAudit, install: [] }],
  ['enable', { ...serverAudit, enable: [] }],
  ['disable', { ...serverAudit, disable: [] }],
  ['expectations', { ...serverAudit, expected: { ...serverAudit.expected, masksPasswords: false } }],
])('a change of %s changes the hash', ([, changed]) => {
  expect(configHash(changed)).not.toBe(configHash(serverAudit));
});

test('title and limit are not configuration: changing them keeps the hash', () => {
  expect(configHash({ ...serverAudit, title: 'renamed', maxOverheadPct: 10 })).toBe(configHash(serverAudit));
});

test('profiles that differ only in startup options (Percona formats) hash apart', () => {
  expect(configHash(perconaAuditLog('JSON'))).not.toBe(configHash(perconaAuditLog('CSV')));
});
