import { expect, test } from 'vitest';
import { createFakeServer } from '../../test/support/fake-server.ts';
import { fakeClock } from '../../test/support/scripted-sysbench.ts';
import { serverAudit } from '../profiles/server-audit.ts';
import { listingKey, readMarkers } from './read-markers.ts';

const record = (n: number) =>
  `20261201 00:10:01,vm,root,127.0.0.1,12,${n},QUERY,,'SELECT id FROM t WHERE id = ${n} /* ab:k3x9:read:${n} */',0\n`;

test('markers are counted over the current and every rotated file; a torn last line is tagged with its file', async () => {
  const server = createFakeServer({
    files: {
      'server_audit.log.002': record(1),
      'server_audit.log.001': record(2) + record(1),
      'server_audit.log': `${record(3)}20261201 00:10:02,vm,root,127.0.0.1,12,4,QUERY,,'SEL`,
    },
  });
  const reading = await readMarkers(server, serverAudit, 'k3x9', null);
  expect(reading.files.map((f) => f.name)).toEqual([
    'server_audit.log.002',
    'server_audit.log.001',
    'server_audit.log',
  ]);
  expect(Object.fromEntries(reading.found.read)).toEqual({ 1: 2, 2: 1, 3: 1 });
  expect(reading.rejected.map((r) => r.reason)).toEqual(['server_audit.log: incomplete last line']);
});

test('with a wait, reads again until every acked claimed marker is there', async () => {
  const server = createFakeServer({ files: { 'server_audit.log': record(1) } });
  setTimeout(() => server.writeFile('server_audit.log', record(1) + record(2)), 300);
  const claims = {
    read: 'logged',
    write: 'logged',
    failed: 'logged',
    ddl: 'logged',
    connect: 'logged',
    failedLogin: 'logged',
  } as const;
  const sent = [1, 2].map((id) => ({ kind: 'read' as const, id, outcome: 'acked' as const }));
  const reading = await readMarkers(server, serverAudit, 'k3x9', { sent, claims, settleMs: 3_000 });
  expect([...reading.found.read.keys()]).toEqual([1, 2]);
});

test('with a wait, a marker that never comes is given up at the deadline on the clock, read every 250 ms', async () => {
  const server = createFakeServer({ files: { 'server_audit.log': record(1) } });
  const clock = fakeClock();
  const sent = [1, 2].map((id) => ({ kind: 'read' as const, id, outcome: 'acked' as const }));
  const claims = {
    read: 'logged',
    write: 'logged',
    failed: 'logged',
    ddl: 'logged',
    connect: 'logged',
    failedLogin: 'logged',
  } as const;
  const reading = await readMarkers(server, serverAudit, 'k3x9', { sent, claims, settleMs: 1_000 }, clock);
  expect([...reading.found.read.keys()]).toEqual([1]);
  expect(clock.sleptMs).toEqual([250, 250, 250, 250]);
});

test('a rotation between two listings changes the listing key (names shift to other files); growth does not', () => {
  const file = (name: string, fileId: string, sizeBytes = 10) => ({ name, fileId, sizeBytes, generation: 0 });
  const before = [file('e.log', '3'), file('e.log.1', '2'), file('e.log.2', '1')];
  const grown = [file('e.log', '3', 99), file('e.log.1', '2'), file('e.log.2', '1')];
  const rotated = [file('e.log', '4'), file('e.log.1', '3'), file('e.log.2', '2'), file('e.log.3', '1')];
  expect(listingKey(grown)).toBe(listingKey(before));
  expect(listingKey(rotated)).not.toBe(listingKey(before));
});
