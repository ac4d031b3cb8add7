import { readFileSync } from 'node:fs';
import { expect, test } from 'vitest';
import { compareWithBase } from '../../src/history/compare.ts';
import { toHistoryEntries } from '../../src/history/entry.ts';
import { resultsFileSchema } from '../../src/results/schema.ts';
import { sweepReportInput } from '../../test/support/report-fixtures.ts';
import { sampleEntry } from '../../test/support/sample-entry.ts';
import { formatMarkdownSummary } from './format-markdown.ts';

const recorded = resultsFileSchema.parse(
  JSON.parse(
    readFileSync(new URL('../../fixtures/results/results-smoke-server-audit.json', import.meta.url), 'utf8'),
  ),
);
const revision = { commit: 'e27add4e27add4', branch: 'feature|pipes' };
/** What every summary here is given besides its results and comparisons. */
const page = {
  revision,
  baseBranch: 'main',
  generatedAt: recorded.generatedAt,
  fingerprint: 'AMD EPYC ×2, 24 GiB',
  maxRegressionPp: null,
  gateLine: 'history check: off',
};

test('a recorded run: one table row per result, the reason, the comparison and the gate line', () => {
  // The history finds a run by its id; the recorded result predates ids, so this test gives it the base's.
  const withId = { ...recorded, results: recorded.results.map((r) => ({ ...r, runId: 'server_audit' })) };
  const entries = toHistoryEntries(withId, revision, 'now');
  const base = sampleEntry({ server: recorded.results[0]?.server ?? sampleEntry().server, configHash: null });
  const comparisons = compareWithBase(entries, [base], { baseBranch: 'main', maxRegressionPp: null });
  const markdown = formatMarkdownSummary({ ...page, results: recorded.results, comparisons });
  const lines = markdown.split('\n');
  const header = lines.find((l) => l.startsWith('| plugin |')) ?? '';
  const row = lines.find((l) => l.startsWith('| MariaDB server_audit |')) ?? '';
  expect(header.split(' | ')).toHaveLength(row.split(' | ').length);
  expect(row).toContain(
    '| 565.6 | 520.2 | 7.3 [-24.7, 31.0] | 50 | pass | ±24.1 (≥31.2) | −2.7 [-30.7, 25.2] | 102.8 | 3350 | – | yes | yes | no | 9 ok |',
  );
  expect(header).toContain('| vs main (pp) |');
  // The recorded run measured server_audit, so the seed's table follows, with the seed's figures beside it.
  expect(markdown).toContain("### The seed's comparison, this run beside it");
  expect(markdown).toContain(
    '| throughput loss % [95% CI] | – | 45.5 (one run) | 7.3 [-24.7, 31.0] | 40.8 (one run) |',
  );
  // No McAfee library was supplied to that run: its column says so, beside the seed's McAfee figures.
  expect(markdown).toContain(
    '| TPS without a plugin | not measured here (no library supplied) | 3661.0 | 565.6 | 3661.0 |',
  );
  // A pipe in the branch would split a table's cell inside a code span too: the branch is written as escaped text.
  expect(markdown).toContain('Commit `e27add4e27ad` on feature\\|pipes,');
  expect(markdown).toContain(
    '- MariaDB server_audit: overhead 7.3% (95% CI -24.7% to 31.0%) is within the 50% limit',
  );
  expect(markdown).toContain('### Compared with main');
  expect(markdown).toContain('**history check: off**');
});

test('a sweep: the status line counts a failed lifecycle, and each run says what it logged', () => {
  const { file, comparisons } = sweepReportInput();
  const markdown = formatMarkdownSummary({
    results: file.results,
    comparisons,
    revision,
    baseBranch: 'main',
    generatedAt: file.generatedAt,
    fingerprint: 'AMD EPYC ×2, 24 GiB',
    maxRegressionPp: 5,
    gateLine: 'history check: off',
  });
  expect(markdown).toContain('**4 runs: 2 pass, 2 fail (incl-users-app: 4 lifecycle checks failed (');
  expect(markdown).toContain('| 3350 | 4.0 (QUERY 4.0) |');
  expect(markdown).toContain('  - logged 4.0 audit events per transaction (QUERY 4.0), 3350 log bytes;');
  // The seed's table: McAfee's (not measured here, and the seed's), then the stock run's column and the seed's, once.
  const seed = markdown.split("### The seed's comparison")[1]?.split('\n')[2] ?? '';
  expect(seed.split(' | ')).toHaveLength(5);
});

test('outside text in summary.md forges no heading, HTML, link or cell: titles, run ids, the branch, the reason', () => {
  const [measured] = recorded.results;
  if (!measured) throw new Error('the recorded results hold no result');
  const hostile = {
    ...measured,
    runId: 'a|b',
    title: 'x\n## auditbench: all passed <script>alert(1)</script> [click](https://example.invalid)',
    workload: 'smoke | 1',
  };
  const markdown = formatMarkdownSummary({
    results: [hostile],
    comparisons: [],
    revision: { commit: 'e27add4e27add4', branch: 'x`\n# y' },
    baseBranch: 'main\n## z',
    generatedAt: recorded.generatedAt,
    fingerprint: 'AMD EPYC ×2, 24 GiB',
    maxRegressionPp: null,
    gateLine: 'history check: off',
  });
  const lines = markdown.split('\n');
  expect(lines.filter((line) => /^#{1,6} /.test(line))).toEqual([
    '## auditbench',
    "### The seed's comparison, this run beside it",
    '### Lifecycle findings',
    '### Compared with main\\\\n## z',
  ]);
  // Each < and each ] before a link's ( is escaped.
  expect(markdown).not.toMatch(/(?<!\\)<script|(?<!\\)\]\(https/);
  expect(markdown).toContain('\\<script\\>alert(1)\\</script\\> [click\\](https://example.invalid)');
  const header = lines.find((l) => l.startsWith('| plugin |')) ?? '';
  const row = lines.find((l) => l.includes('\\<script\\>')) ?? '';
  // A pipe in a cell is escaped, so the row keeps the header's number of cells.
  expect(row.split(/(?<!\\)\|/)).toHaveLength(header.split('|').length);
  expect(row).toContain('| smoke \\| 1 |');
  expect(markdown).toContain('Commit `e27add4e27ad` on ``x`\\n# y``,');
});

test('summary.md names docs/when-it-fails.md under the status line when a run failed, and not for a pass', () => {
  const input = { ...page, comparisons: [] };
  const idle = recorded.results.map((r) => ({ ...r, verdict: 'idle' as const }));
  expect(formatMarkdownSummary({ ...input, results: idle })).toContain('docs/when-it-fails.md (#idle)');
  expect(formatMarkdownSummary({ ...input, results: recorded.results })).not.toContain('when-it-fails');
});
