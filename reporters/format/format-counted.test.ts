import { expect, test } from 'vitest';
import { countedReportInput } from '../../test/support/report-fixtures.ts';
import { formatCountedMarkdown, formatCountedText } from './format-counted.ts';

const results = () => countedReportInput().file.results;

test('the terminal shows each counted run: how it was counted, the per-transaction table, where it goes', () => {
  const text = formatCountedText(results());
  expect(text).toMatch(
    /callgrind, oltp_read_write 4×10000, 150 transactions per arm, seed 42, 1 thread, 1 ABBA pair after/,
  );
  expect(text).toMatch(/│ instructions\s+│ 2,713,123\s+│ 2,910,151\s+│ \+197,028\s+│ \+7\.26%\s+│/);
  expect(text).toContain('- most added: my_vsnprintf_ex (mariadbd) +48,427');
  expect(text).toMatch(/entered through auditing\(\) 79\.3 times a transaction/);
});

test('summary.md gets a table with a row per quantity and the method under it', () => {
  const md = formatCountedMarkdown(results()).join('\n');
  expect(md).toContain('### Counted cost per transaction (callgrind)');
  expect(md.match(/^\| .* \| audit log bytes \| 0 \| 3,269 \|/m)).not.toBeNull();
});

test('nothing counted, nothing shown', () => {
  expect(formatCountedText([])).toBe('');
  expect(formatCountedMarkdown([])).toEqual([]);
});
