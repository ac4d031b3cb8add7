import { expect, test } from 'vitest';
import { sweepReportInput } from '../../test/support/report-fixtures.ts';
import { formatTerminalReport } from './format-terminal.ts';
import { SECTIONS } from './sections.ts';

const { file } = sweepReportInput();

test('the terminal shows the summary, then each section with something to say, under its title, in order', () => {
  const headings = formatTerminalReport(file)
    .split('\n')
    .filter((line, i, lines) => lines[i - 1] === '' && /^[A-Za-z]/.test(line));
  expect(headings).toEqual([
    'auditbench summary',
    'Configurations compared, cheapest first',
    "The seed's comparison, this run beside it",
    'Lifecycle findings',
  ]);
});

test('a section of its own is one more entry; one with nothing to say prints nothing', () => {
  const text = formatTerminalReport(file, [
    ...SECTIONS,
    {
      title: 'Faults',
      shows: () => true,
      content: () => ({
        about: ['not in the terminal'],
        tables: [{ head: [{ text: 'fault' }], rows: [['disk full']] }],
      }),
    },
    { title: 'never shown', shows: () => false, content: () => ({ list: ['x'] }) },
  ]);
  expect(text.endsWith('\nFaults\n  fault\n  disk full\n')).toBe(true);
  expect(text).not.toContain('never shown');
  expect(text).not.toContain('not in the terminal');
});

test('every line stays within 120 columns', () => {
  for (const line of formatTerminalReport(file).split('\n'))
    expect([...line].length).toBeLessThanOrEqual(120);
});
