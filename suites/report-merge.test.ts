import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { execa } from 'execa';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { formatHistoryLines, parseHistory } from '../src/history/parse-history.ts';
import { resultsFileSchema } from '../src/results/schema.ts';
import { sampleEntry } from '../test/support/sample-entry.ts';

// Shards two stand-in plugin suites with --reporter=blob, merges them with --merge-reports, and checks that
// task.meta survived: results.json, the history, the gate and every report come out of the merged run.
const CONFIG = 'suites/report-merge/vitest.merge.config.ts';
let dir = '';
let reportDir = '';
let merged = { exitCode: 0 as number | undefined, stdout: '' };

// A clean child environment: never the real report dir, never this job's GitHub summary.
const childEnv = (): Record<string, string | undefined> => ({
  ...Object.fromEntries(Object.entries(process.env).filter(([k]) => !/^(GITHUB_|AUDITBENCH_)/.test(k))),
  AUDITBENCH_REPORT_DIR: reportDir,
  AUDITBENCH_GIT_BRANCH: 'feature/merge-check',
  AUDITBENCH_MAX_REGRESSION_PP: '5',
});
const vitest = (args: string[]) =>
  execa('vitest', ['run', '--config', CONFIG, ...args], {
    preferLocal: true,
    env: childEnv(),
    extendEnv: false,
    reject: false,
  });

beforeAll(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), 'auditbench-merge-'));
  reportDir = path.join(dir, 'reports');
  await mkdir(reportDir);
  // Fake audit A measured 5% on main on the same machine as its shard: its 20% now is a regression.
  const base = sampleEntry({
    title: 'Fake audit A',
    configHash: 'aaaaaaaaaaaa',
    fingerprint: 'Fake CPU shard-a ×2, 8 GiB',
    overheadPct: 5,
    overheadCi95: [4, 6],
  });
  const recorded = JSON.parse(await readFile('fixtures/results/results-smoke-server-audit.json', 'utf8'));
  await writeFile(
    path.join(reportDir, 'history.jsonl'),
    formatHistoryLines([{ ...base, server: recorded.results[0].server }]),
  );
  for (const shard of ['1/2', '2/2']) {
    const out = path.join(dir, 'blobs', `blob-${shard.replace('/', '-')}.json`);
    const run = await vitest([`--shard=${shard}`, '--reporter=blob', `--outputFile=${out}`]);
    if (run.exitCode !== 0) throw new Error(`shard ${shard} failed:\n${run.stdout}\n${run.stderr}`);
  }
  const run = await vitest([`--merge-reports=${path.join(dir, 'blobs')}`]);
  merged = { exitCode: run.exitCode, stdout: run.stdout };
}, 120_000);

afterAll(async () => {
  if (dir) await rm(dir, { recursive: true, force: true });
});

test('the merged run writes one results.json with both shards, each with its own machine and config hash', async () => {
  const file = resultsFileSchema.parse(
    JSON.parse(await readFile(path.join(reportDir, 'results.json'), 'utf8')),
  );
  const byTitle = Object.fromEntries(file.results.map((r) => [r.title, r]));
  expect(Object.keys(byTitle).sort()).toEqual(['Fake audit A', 'Fake audit B']);
  expect(byTitle['Fake audit A']).toMatchObject({
    configHash: 'aaaaaaaaaaaa',
    machine: { hostname: 'shard-a' },
  });
  expect(byTitle['Fake audit B']).toMatchObject({
    configHash: 'bbbbbbbbbbbb',
    machine: { hostname: 'shard-b' },
  });
  expect(byTitle['Fake audit A']?.lifecycle).toHaveLength(9);
});

test('the history gets one line per result, after the line that was there', async () => {
  const { entries, warnings } = parseHistory(await readFile(path.join(reportDir, 'history.jsonl'), 'utf8'));
  expect(warnings).toEqual([]);
  const line = (e: { title: string; branch: string; fingerprint: string }) =>
    `${e.title} | ${e.branch} | ${e.fingerprint}`;
  expect(entries.map(line)[0]).toBe('Fake audit A | main | Fake CPU shard-a ×2, 8 GiB');
  // Merged files come in the order their shards finished.
  expect(entries.slice(1).map(line).sort()).toEqual([
    'Fake audit A | feature/merge-check | Fake CPU shard-a ×2, 8 GiB',
    'Fake audit B | feature/merge-check | Fake CPU shard-b ×4, 16 GiB',
  ]);
});

test('the gate fails the merged run on the regression, naming both runs, and the closing line comes last', () => {
  expect(merged.exitCode).toBe(1);
  expect(merged.stdout).toMatch(
    /Fake audit A .*20\.0% \[18\.0, 22\.0\] at \w+ \(feature\/merge-check, .* vs 5\.0% \[4\.0, 6\.0\] at aaaaaaa \(main, 2026-11-29 10:00 UTC\): \+15\.0 pp/,
  );
  expect(merged.stdout).toContain(
    'regression gate: FAILED against main (allowed rise 5 pp): 1 regressed, 0 inconclusive',
  );
  expect(merged.stdout.trimEnd().split('\n').at(-1)).toBe('tests: 22 passed, 0 failed, 0 skipped');
});

test('summary.md, index.html and junit.xml are written from the merged run', async () => {
  const read = (name: string) => readFile(path.join(reportDir, name), 'utf8');
  expect(await read('summary.md')).toContain('| Fake audit B |');
  expect((await read('index.html')).match(/data-chart="timeline"><svg/g)).toHaveLength(2);
  expect(await read('junit.xml')).toContain('tests="22"');
});
