import { readFileSync } from 'node:fs';
import path from 'node:path';
import { expect, test } from 'vitest';
import { formatTerminalReport } from '../../reporters/format/format-terminal.ts';
import { resultsFileSchema } from '../../src/results/schema.ts';
import { root } from './source-graph.ts';

// The README shows what `bench` prints at its end; it must be what the terminal summary prints for a real run's
// results, so a change to the table shows up here rather than in a user's surprise.
const FIXTURE = 'fixtures/results/results-smoke-server-audit.json';

/** The fenced block that follows the comment naming the fixture, without its fences. */
function readmeSample(): string {
  const lines = readFileSync(path.join(root, 'README.md'), 'utf8').split('\n');
  const marker = lines.findIndex((l) => l.startsWith('<!--') && l.includes(FIXTURE));
  const open = lines.findIndex((l, i) => i > marker && l.startsWith('```'));
  const close = lines.findIndex((l, i) => i > open && l.startsWith('```'));
  expect(marker, `README.md has no comment naming ${FIXTURE}`).toBeGreaterThanOrEqual(0);
  return lines.slice(open + 1, close).join('\n');
}

test('the README’s sample output is the terminal summary of the recorded results', () => {
  const file = resultsFileSchema.parse(JSON.parse(readFileSync(path.join(root, FIXTURE), 'utf8')));
  // With no sections, the terminal report is its opening: the summary (the recorded run has no matrix).
  expect(readmeSample()).toBe(formatTerminalReport(file, []).trim());
});
