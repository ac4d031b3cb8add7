import { readFileSync } from 'node:fs';
import { gunzipSync } from 'node:zlib';
import { describe, expect, test } from 'vitest';
import { fnKey, parseCallgrindDump } from './callgrind-dump.ts';

const recorded = (name: string) =>
  gunzipSync(
    readFileSync(new URL(`../../fixtures/callgrind/${name}.callgrind.gz`, import.meta.url)),
  ).toString('utf8');

describe('parseCallgrindDump', () => {
  test('compressed names, self cost and a call across objects', () => {
    const dump = parseCallgrindDump(
      [
        '# callgrind format',
        'positions: line',
        'events: Ir',
        'summary: 900',
        'ob=(1) /usr/lib/mysql/plugin/server_audit.so',
        'fl=(1) ???',
        'fn=(1) auditing',
        '0 100',
        'cob=(2) /usr/sbin/mariadbd',
        'cfn=(2) my_write',
        'calls=3 0',
        '0 400',
        '0 50',
        'ob=(2)',
        'fn=(2)',
        '0 400',
        'fn=(3) dispatch_command',
        '0 300',
        'cob=(1)',
        'cfn=(1)',
        'calls=2 0',
        '0 550',
        'totals: 850',
      ].join('\n'),
    );
    expect(dump.events).toEqual(['Ir']);
    expect(dump.totalIr).toBe(850);
    expect(dump.selfIr.get(fnKey('/usr/lib/mysql/plugin/server_audit.so', 'auditing'))).toBe(150);
    expect(dump.selfIr.get(fnKey('/usr/sbin/mariadbd', 'my_write'))).toBe(400);
    expect(dump.selfIr.get(fnKey('/usr/sbin/mariadbd', 'dispatch_command'))).toBe(300);
    expect([...dump.crossings]).toEqual([
      [
        '/usr/lib/mysql/plugin/server_audit.so\tauditing\t/usr/sbin/mariadbd\tmy_write',
        { calls: 3, inclusiveIr: 400 },
      ],
      [
        '/usr/sbin/mariadbd\tdispatch_command\t/usr/lib/mysql/plugin/server_audit.so\tauditing',
        { calls: 2, inclusiveIr: 550 },
      ],
    ]);
  });

  test('a name used before it is defined is refused', () => {
    expect(() => parseCallgrindDump('events: Ir\nfn=(7)\n0 1')).toThrow(/name \(7\) is used before/);
  });

  test('a file without events is not a callgrind dump', () => {
    expect(() => parseCallgrindDump('hello\n')).toThrow(/no `events:` line/);
  });

  test.for(['server-audit-off', 'server-audit-on'])(
    'a recorded mariadbd 10.11.19 dump (%s): its self costs add up to its totals',
    (name) => {
      const dump = parseCallgrindDump(recorded(name));
      let self = 0;
      for (const ir of dump.selfIr.values()) self += ir;
      expect(dump.totalIr).toBeGreaterThan(100_000_000);
      expect(self).toBe(dump.totalIr);
    },
  );
});
