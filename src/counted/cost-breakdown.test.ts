import { readFileSync } from 'node:fs';
import { gunzipSync } from 'node:zlib';
import { expect, test } from 'vitest';
import { parseCallgrindDump } from './callgrind-dump.ts';
import { costBreakdown } from './cost-breakdown.ts';

const recorded = (name: string) =>
  parseCallgrindDump(
    gunzipSync(
      readFileSync(new URL(`../../fixtures/callgrind/${name}.callgrind.gz`, import.meta.url)),
    ).toString('utf8'),
  );

test('server_audit on mariadbd 10.11.19 (recorded, 150 transactions per arm): where its instructions go', () => {
  const off = { kind: 'off' as const, transactions: 150, dump: recorded('server-audit-off') };
  const on = { kind: 'on' as const, transactions: 150, dump: recorded('server-audit-on') };
  const arms = [off, on];
  const { topFunctions, byObject, entryPoints } = costBreakdown(arms, 'server_audit.so');
  // Formatting each record's fields is the largest share: the server's printf, called by the plugin.
  expect(topFunctions[0]).toMatchObject({ object: 'mariadbd', fn: 'my_vsnprintf_ex' });
  expect(topFunctions).toHaveLength(10);
  const objects = byObject.filter((o) => Math.round(o.addedPerTx) !== 0).map((o) => o.object);
  expect(objects).toEqual(['mariadbd', 'libc.so.6', 'server_audit.so']);
  // The plugin is entered through its notify function, ~79 times a transaction, on and off.
  expect(entryPoints.map((e) => e.fn)).toEqual(['auditing']);
  const [auditing] = entryPoints;
  expect(auditing?.callsPerTx).toBeCloseTo(79.3, 1);
  expect(auditing?.inclusivePerTx).toBeGreaterThan(10 * (auditing?.offInclusivePerTx ?? 0));
  // Every added instruction is in some object file: the per-object sums add up to the totals' difference.
  const sum = byObject.reduce((a, o) => a + o.addedPerTx, 0);
  expect(sum).toBeCloseTo((on.dump.totalIr - off.dump.totalIr) / 150, 3);
});

test("the send family's calls: the server's replies in both arms of a file log, and a syslog record's one more", () => {
  const off = { kind: 'off' as const, transactions: 150, dump: recorded('server-audit-off') };
  const on = { kind: 'on' as const, transactions: 150, dump: recorded('server-audit-on') };
  const file = costBreakdown([off, on], 'server_audit.so').sendCalls;
  console.log(`recorded file log: send calls per transaction ${JSON.stringify(file)}`);
  expect(Math.abs(file?.addedPerTx ?? 0)).toBeLessThan(0.05);
  // A stand-in dump: one transaction, the plugin's syslog() reaching glibc's send through its internal alias.
  const dump = (records: number) =>
    parseCallgrindDump(
      [
        'events: Ir',
        'ob=(1) /usr/sbin/mariadbd',
        'fn=(1) do_command',
        '0 100',
        'cob=(2) /usr/lib/x86_64-linux-gnu/libc.so.6',
        'cfn=(2) send',
        'calls=2 0',
        '0 40',
        ...(records > 0
          ? [
              'ob=(3) /usr/lib/mysql/plugin/server_audit.so',
              'fn=(3) auditing',
              '0 10',
              'cob=(2)',
              'cfn=(4) __vsyslog_internal',
              `calls=${records} 0`,
              '0 30',
              'ob=(2)',
              'fn=(4)',
              '0 20',
              'cfn=(5) __send',
              `calls=${records} 0`,
              '0 10',
            ]
          : []),
      ].join('\n'),
    );
  const syslog = costBreakdown(
    [
      { kind: 'off', transactions: 1, dump: dump(0) },
      { kind: 'on', transactions: 1, dump: dump(3) },
    ],
    'server_audit.so',
  ).sendCalls;
  expect(syslog).toEqual({ offPerTx: 2, onPerTx: 5, addedPerTx: 3 });
});
