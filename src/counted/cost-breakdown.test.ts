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
