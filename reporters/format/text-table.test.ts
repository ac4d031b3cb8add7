import { expect, test } from 'vitest';
import { textTable } from './text-table.ts';

const head = (...texts: string[]) => texts.map((text) => ({ text }));

test('a table that fits is padded columns, indented by two', () => {
  expect(textTable({ head: head('run', 'overhead'), rows: [['server_audit', '9.1%']] })).toBe(
    '  run           overhead\n  server_audit  9.1%',
  );
});

test('a wider one is a grid within the width, wrapping between words and losing none', () => {
  const long = 'the plugin reopened its log after FLUSH LOGS and wrote every marker again';
  const text = textTable(
    { head: head('fault', 'server', 'recovery'), rows: [['disk-full', long, long]] },
    60,
  );
  const lines = text.split('\n');
  for (const line of lines) expect([...line].length).toBeLessThanOrEqual(60);
  const words = text.replace(/[│┌┐└┘├┤┬┴┼─]/g, ' ').split(/\s+/);
  for (const word of long.split(' ')) expect(words).toContain(word);
});

test('columns that do not fit go on to a further grid, each row heading repeated', () => {
  const columns = Array.from({ length: 12 }, (_, i) => `column ${i}`);
  const text = textTable({
    head: head('measure', ...columns),
    rows: [['TPS', ...columns.map(() => '565.6')]],
  });
  for (const line of text.split('\n')) expect([...line].length).toBeLessThanOrEqual(120);
  expect(text.match(/│ TPS/g)?.length).toBeGreaterThan(1);
  for (const column of columns) expect(text).toContain(column);
});

test('a word longer than any column is cut, and the line still fits', () => {
  const text = textTable({ head: head('a', 'b'), rows: [['x', 'y'.repeat(300)]] });
  for (const line of text.split('\n')) expect([...line].length).toBeLessThanOrEqual(120);
});
