import { expect, test } from 'vitest';
import { mergeMeasuredTraffic } from '../config/measured-traffic.ts';
import type { PluginProfile } from '../plugins/profile.ts';
import { perconaAuditLog } from '../profiles/percona-audit-log.ts';
import { serverAudit } from '../profiles/server-audit.ts';
import { canonicalJson, configHash } from './config-hash.ts';
import { resolveRun } from './runs.ts';

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

test('default traffic keeps the hash a run had before traffic existed; any other traffic changes it', () => {
  const run = { id: 'server_audit', optionFileSha256: null };
  const traffic = mergeMeasuredTraffic(undefined, undefined, null);
  expect(configHash(serverAudit, { ...run, traffic })).toBe(configHash(serverAudit, run));
  const changed = [
    mergeMeasuredTraffic({ added: { connectionsPerS: 5 } }, undefined, null),
    mergeMeasuredTraffic(undefined, { preparedStatements: false }, null),
    mergeMeasuredTraffic(undefined, { accounts: { application: 'app' } }, null),
    mergeMeasuredTraffic(undefined, undefined, { path: 'kv.lua', sha256: 'a'.repeat(64) }),
  ];
  const hashes = changed.map((t) => configHash(serverAudit, { ...run, traffic: t }));
  expect(new Set([configHash(serverAudit, run), ...hashes]).size).toBe(changed.length + 1);
  const edited = mergeMeasuredTraffic(undefined, undefined, { path: 'kv.lua', sha256: 'b'.repeat(64) });
  expect(configHash(serverAudit, { ...run, traffic: edited })).not.toBe(hashes[3]);
});

test('a p99 limit, like the throughput limit, leaves the hash alone: a run that adds one compares with its history', () => {
  const plain = resolveRun({ plugin: 'server_audit' }, serverAudit, null);
  const limited = resolveRun({ plugin: 'server_audit', maxP99IncreasePct: 25 }, serverAudit, null);
  expect(limited.maxP99IncreasePct).toBe(25);
  expect(plain.maxP99IncreasePct).toBeUndefined();
  const run = { id: plain.id, optionFileSha256: null, traffic: plain.traffic };
  expect(configHash(limited.profile, run)).toBe(configHash(plain.profile, run));
});
