import { expect, test } from 'vitest';
import { sampleEntry } from '../../test/support/sample-entry.ts';
import { sampleIdentity } from '../../test/support/sample-identity.ts';
import { formatGateSummary, trendOf } from './summary.ts';

const counted = (pct: number) => ({
  identity: sampleIdentity(),
  instructionsPct: pct,
  instructionsPctCi95: [pct - 0.3, pct + 0.3] as [number, number],
  instructionsAddedPerTx: 186_000,
  writeCallsAddedPerTx: 77,
  logBytesNetAddedPerTx: 2_950,
  eventsPerTx: 38,
});
const older = sampleEntry({
  runId: 'events',
  commit: 'a'.repeat(40),
  hostname: 'runner-a',
  counted: counted(6.9),
});
const newer = sampleEntry({
  runId: 'events',
  commit: 'b'.repeat(40),
  recordedAt: '2026-11-30T09:15:00.000Z',
  hostname: 'runner-b',
  counted: counted(7.1),
});
const branchEntry = sampleEntry({
  runId: 'events',
  branch: 'more-events',
  recordedAt: '2026-12-01T00:00:00Z',
});
const selection = [
  'auditbench gate: 1 file(s) changed since main (ccccccc)',
  '  run events: settings changed',
];
const failed = {
  mark: 'FAILED',
  line: 'auditbench gate: FAILED: events, base (…) vs head (…): head is 7.5% slower than base … [toggle, 6 pairs]',
};

/** formatGateSummary with one passed verdict on main, an empty history and no run; override what the test is about. */
const summarise = (input: Partial<Parameters<typeof formatGateSummary>[0]>) =>
  formatGateSummary({
    selection,
    verdicts: [{ mark: 'passed', line: 'auditbench gate: passed: …' }],
    exitCode: 0,
    baseRef: 'main',
    runIds: [],
    history: [],
    ...input,
  });

test('the trend keeps the base branch’s entries of the run, newest first, whatever the ref’s spelling', () => {
  expect(trendOf([older, branchEntry, newer], 'events', 'main')).toEqual([newer, older]);
});

test('a failed gate shows its verdict, then the base branch’s entries with their counted figures', () => {
  const md = summarise({
    verdicts: [failed],
    exitCode: 1,
    baseRef: 'origin/main',
    runIds: ['events'],
    history: [older, newer, branchEntry],
  });
  expect(md).toMatch(/^## auditbench gate: FAILED\n/);
  expect(md).toContain(failed.line);
  expect(md).toContain("### main's trend (history.jsonl)");
  const rows = md.split('\n').filter((line) => line.startsWith('| events |'));
  expect(rows).toEqual([
    '| events | `bbbbbbb` | 2026-11-30 09:15 | runner-b | 10.0% [8.0, 12.0] on smoke | +7.10% instructions [6.80, 7.40], +77.0 writes, +2950 log bytes per transaction |',
    '| events | `aaaaaaa` | 2026-11-29 10:00 | runner-a | 10.0% [8.0, 12.0] on smoke | +6.90% instructions [6.60, 7.20], +77.0 writes, +2950 log bytes per transaction |',
  ]);
});

test('a verdict and its design line are two lines of the fence', () => {
  const md = summarise({
    verdicts: [
      { mark: 'passed', line: 'auditbench gate: passed: x\nauditbench gate: x measured with restarts' },
    ],
  });
  expect(md).toContain('```\nauditbench gate: passed: x\nauditbench gate: x measured with restarts\n```');
});

test('a run with no base-branch entry says a push records it; an uncounted entry says so', () => {
  const md = summarise({ runIds: ['events', 'ops-cnf'], history: [sampleEntry({ runId: 'events' })] });
  expect(md).toMatch(/^## auditbench gate: passed\n/);
  expect(md).toContain('| 10.0% [8.0, 12.0] on smoke | not counted |');
  expect(md).toContain(
    'No entry of ops-cnf on main in history.jsonl yet: a push to main measures the configured runs and records them.',
  );
});

test('nothing to measure, and a measurement that stopped before any verdict, each say so', () => {
  const none = summarise({ verdicts: [], exitCode: null });
  expect(none).toMatch(/^## auditbench gate: nothing to measure\n/);
  expect(none).toContain(
    'No run selected and no entry on main in history.jsonl yet: a push to main measures the configured runs and records them.',
  );
  const broken = summarise({ verdicts: [], exitCode: 1, runIds: ['events'] });
  expect(broken).toMatch(/^## auditbench gate: FAILED\n/);
  expect(broken).toContain('The measurement exited 1 before any verdict');
});

test('runs the branch did not change still show their base-branch entries, after the selected ones', () => {
  const md = summarise({ runIds: ['ops-cnf'], history: [older, branchEntry] });
  expect(md).toContain('No entry of ops-cnf on main in history.jsonl yet');
  expect(md.split('\n').filter((line) => line.startsWith('| events |'))).toHaveLength(1);
  expect(md).not.toContain('more-events');
});

/** The lines outside fenced code (CommonMark: a fence closes on a backtick line at least as long as its opening). */
function outsideFences(lines: string[]): string[] {
  let open = 0;
  return lines.filter((line) => {
    const run = /^(`{3,})$/.exec(line)?.[1]?.length ?? 0;
    if (open === 0 && run > 0) open = run;
    else if (open > 0 && run >= open) open = 0;
    else return open === 0;
    return false;
  });
}

test('outside text cannot forge a heading, close a fence, add HTML or split a cell', () => {
  const forged = '\n## auditbench gate: passed';
  const md = summarise({
    selection: ['auditbench gate: 1 file(s) changed since main (ccccccc)', '  run x: ```', `## forged`],
    verdicts: [{ mark: 'FAILED', line: `auditbench gate: FAILED: events${forged}, head is 9% slower` }],
    exitCode: 1,
    baseRef: 'origin/main',
    runIds: [`events${forged}`],
    history: [
      sampleEntry({
        runId: 'ev|ents',
        commit: '`x`|<b>',
        hostname: '<script>alert(1)</script>',
        workload: 'smoke\n# heading',
      }),
    ],
  });
  const lines = md.split('\n');
  const outside = outsideFences(lines);
  expect(outside.filter((line) => line.startsWith('#'))).toEqual([
    '## auditbench gate: FAILED',
    "### main's trend (history.jsonl)",
  ]);
  // The selection's ``` cannot close its fence: the fence is four backticks, opened and closed once.
  expect(lines.filter((line) => /^`{3,}$/.test(line))).toEqual(['````', '````', '```', '```']);
  // A verdict's newline starts a line of the fence (its design line is one), where a # is text.
  expect(md).toContain('auditbench gate: FAILED: events\n## auditbench gate: passed, head is 9% slower\n```');
  expect(md).not.toContain('<script>');
  const row = lines.find((line) => line.startsWith('| ev'));
  expect(row).toBe(
    '| ev\\|ents | \\`x\\`\\|\\<b\\> | 2026-11-29 10:00 | \\<script\\>alert(1)\\</script\\> | 10.0% [8.0, 12.0] on smoke\\\\n# heading | not counted |',
  );
  expect(md).toContain('No entry of events\\\\n## auditbench gate: passed on main in history.jsonl yet');
});
