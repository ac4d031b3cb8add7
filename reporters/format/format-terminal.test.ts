import { expect, test } from 'vitest';
import { sweepReportInput } from '../../test/support/report-fixtures.ts';
import { formatTerminalReport, TERMINAL_SECTIONS } from './format-terminal.ts';

const { file } = sweepReportInput();

test('the terminal shows each section with something to say, under its heading, in order', () => {
  const headings = formatTerminalReport(file)
    .split('\n')
    .filter((line, i, lines) => lines[i - 1] === '' && /^[A-Za-z]/.test(line));
  expect(headings).toEqual([
    'auditbench summary',
    'auditbench configurations compared',
    "The seed's comparison, this run beside it",
  ]);
});

test('a section of its own is one more entry; one with nothing to say prints nothing', () => {
  const text = formatTerminalReport(file, [
    ...TERMINAL_SECTIONS,
    { heading: 'auditbench faults', body: () => 'one fault table' },
    { heading: 'never shown', body: () => null },
  ]);
  expect(text.endsWith('\nauditbench faults\none fault table\n')).toBe(true);
  expect(text).not.toContain('never shown');
});
