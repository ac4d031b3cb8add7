import { formatTerminalReport } from '../format/format-terminal.ts';
import type { ReportWriter } from './writer.ts';

/** Prints the run's tables (reporters/format/format-terminal.ts lists them) to the terminal. */
export const terminalSummaryWriter: ReportWriter = {
  what: 'print the summary',
  write({ file }) {
    process.stdout.write(formatTerminalReport(file));
  },
};
