import { expect, test } from 'vitest';
import { historyCounted } from '../../src/history/entry.ts';
import { countedReportInput } from '../../test/support/report-fixtures.ts';
import { countedBars } from '../charts/counted-spec.ts';
import { countedContent, countedMethod, hasCounted, topFunctionLines } from './format-counted.ts';
import { sectionMarkdown } from './format-markdown.ts';
import { sectionText } from './format-terminal.ts';

const results = () => countedReportInput().file.results;

test('the terminal shows each counted run: how it was counted, the per-transaction table, where it goes', () => {
  const [table] = countedContent(results()).tables ?? [];
  expect(table?.caption).toMatch(
    /callgrind, oltp_read_write 4×10000, 150 transactions per arm, seed 42, 1 thread, 1 ABBA pair after/,
  );
  const text = sectionText(countedContent(results()));
  expect(text).toMatch(/^ {2}instructions +2,713,123 +2,910,151 +\+197,028 +\+7\.26%$/m);
  expect(text).toContain('- most added: my_vsnprintf_ex (mariadbd) +48,427');
  expect(text).toMatch(/entered through auditing\(\) 79\.3 times a transaction/);
});

test('the counts priced at the machine’s rates stand beside the wall clock, with the rates they used', () => {
  const notes = countedContent(results()).tables?.[0]?.notes ?? [];
  // One recorded pair: no interval on the counts, so none on the prediction.
  expect(notes).toContain(
    "counted work predicts 13.9% at this machine's rates, the wall clock measured 7.3% [-24.7, 31.0]: explained by counted work",
  );
  expect(notes).toContain(
    "rates from 10 s plugin off on the wall-clock server (which kept 0.98 of its core busy): an instruction 0.21 ns, a 47-byte write() 1.9 µs; the plugin adds 42 µs of instructions and 146 µs of write() to the server's 1170 µs a transaction",
  );
  const md = sectionMarkdown('Counted', countedContent(results())).join('\n');
  expect(md).toContain("- counted work predicts 13.9% at this machine's rates");
});

test('summary.md gets a table with a row per quantity and the method under it', () => {
  const md = sectionMarkdown('Counted cost per transaction (callgrind)', countedContent(results())).join(
    '\n',
  );
  expect(md).toContain('### Counted cost per transaction (callgrind)');
  expect(md).toMatch(/^\*\*MariaDB server_audit on .*: callgrind, oltp_read_write 4×10000, /m);
  expect(md.match(/^\| audit log bytes \| 0 \| 3,269 \|/m)).not.toBeNull();
});

test('the method names the ids the arms logged and whether they kept one width', () => {
  const [first] = results();
  if (!first?.counted) throw new Error('the fixture has no counted result');
  // The figures of the 00:28 UTC run on 2026-12-05 (docs/measurements/2026-12-05-id-widths.md).
  const ids = {
    afterWarmup: 9_498,
    warmupIds: 9_486,
    boundIds: 28_458,
    advancedBy: 490,
    first: 10_000,
    last: 28_481,
  };
  const connections = { afterWarmup: 5, warmupIds: 1, boundIds: 9, advancedBy: 4, first: 10, last: 15 };
  expect(countedMethod({ ...first.counted, queryIds: ids, connectionIds: connections })).toContain(
    '; query ids 10,000–28,481 (skipped 490 to one width), connection ids 10–15 (skipped 4 to one width);',
  );
  expect(countedMethod({ ...first.counted, queryIds: { ...ids, advancedBy: 0, first: 9_600 } })).toContain(
    '; query ids 9,600–28,481 (NOT one width);',
  );
});

test('arms refused as not comparable show one line instead of the plugin’s cost, and history keeps no figure', () => {
  const [first, ...rest] = results();
  if (!first?.counted) throw new Error('the fixture has no counted result');
  const refused =
    "not comparable: counted arm 6 (on) logged 20.03 audit events per transaction, the wall clock 37.98 (tolerance ±1.90: 5% or 8 events an arm); its counted figures are not reported as the plugin's cost";
  const result = {
    ...first,
    counted: { ...first.counted, comparable: { wallClockEventsPerTx: 37.98, refused } },
  };
  const content = countedContent([result, ...rest]);
  expect(content.list).toHaveLength(1);
  expect(content.list?.[0]).toMatch(
    /: not comparable: counted arm 6 \(on\) logged 20\.03 .* the wall clock 37\.98 /,
  );
  expect(content.tables).toEqual([]);
  expect(sectionText(content)).not.toContain('instructions');
  expect(hasCounted([result])).toBe(true);
  expect(countedBars([result])).toEqual([]);
  expect(historyCounted(result)).toBeNull();
  expect(historyCounted(first)).not.toBeNull();
});

test('nothing counted, nothing shown', () => {
  expect(hasCounted([])).toBe(false);
});

test('the method says when some arm could not count every connection thread’s writes', () => {
  const [first] = results();
  if (!first?.counted) throw new Error('the fixture has no counted result');
  const arms = first.counted.arms.map((a, i) => ({ ...a, lostThreads: i === 0 ? 5 : 0 }));
  // The discarded warm-up's threads do not matter; a measured arm's do.
  expect(countedMethod({ ...first.counted, arms })).not.toContain('NOT complete');
  arms[1] = { ...(arms[1] as (typeof arms)[number]), lostThreads: 1 };
  expect(countedMethod({ ...first.counted, arms })).toContain(
    '; write syscalls and bytes NOT complete: 1 connection thread in 1 arm exited or came and went unread;',
  );
});

test('functions callgrind could not name are one "unresolved" item with their share, not a list of addresses', () => {
  const counted = results()[0]?.counted;
  if (!counted) throw new Error('the recorded results hold no counted record');
  const total = counted.figures.instructions.addedPerTx;
  const withAddresses = {
    ...counted,
    topFunctions: [
      { object: 'mariadbd', fn: '0x0000000000a1b2c3', addedPerTx: total * 0.2 },
      { object: 'server_audit.so', fn: 'log_statement_ex', addedPerTx: total * 0.1 },
      { object: 'mariadbd', fn: '0x00000000001f00d0', addedPerTx: total * 0.05 },
    ],
  };
  expect(topFunctionLines(withAddresses)).toEqual([
    expect.stringMatching(/^log_statement_ex \(server_audit\.so\) \+[\d,]+$/),
    'unresolved (25% of the added instructions)',
  ]);
  expect(topFunctionLines(withAddresses).join(' ')).not.toMatch(/0x[0-9a-f]/);
});

test('an entry point with no symbol is said as such, and an unresolved share past 100% is given as a count', () => {
  const [first] = results();
  const counted = first?.counted;
  if (!first || !counted) throw new Error('the recorded results hold no counted record');
  const [entry] = counted.entryPoints;
  if (!entry) throw new Error('the recorded counted record has no entry point');
  // SQL_ERROR_LOG's library is stripped: bench of 2026-12-07 printed "entered through 0x0000000000001170()".
  const stripped = {
    ...first,
    counted: { ...counted, entryPoints: [{ ...entry, fn: '0x0000000000001170' }] },
  };
  const text = sectionText(countedContent([stripped]));
  expect(text).toContain('the plugin is entered through one function callgrind could not name ');
  expect(text).not.toMatch(/0x[0-9a-f]/);
  // A plugin that adds almost nothing: 105% of the net was printed; now the count beside the net.
  const nearZero = {
    ...counted,
    figures: { ...counted.figures, instructions: { ...counted.figures.instructions, addedPerTx: 200 } },
    topFunctions: [{ object: 'mariadbd', fn: '0x0000000000a1b2c3', addedPerTx: 210 }],
  };
  expect(topFunctionLines(nearZero)).toEqual([
    'unresolved (+210 instructions a transaction, beside +200 added in all)',
  ]);
});
