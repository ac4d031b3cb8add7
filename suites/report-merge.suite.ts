import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { execa } from 'execa';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { formatHistoryLines, parseHistory } from '../src/history/parse-history.ts';
import { planMatrix } from '../src/matrix/cell-plan.ts';
import { matrixProfiles } from '../src/matrix/expectations.ts';
import { profiles } from '../src/profiles/index.ts';
import { resultsFileSchema } from '../src/results/schema.ts';
import { sampleEntry } from '../test/support/sample-entry.ts';
import { fakeTargets } from './report-merge/fake-matrix.ts';

// Shards two stand-in plugin suites with --reporter=blob, merges them with --merge-reports, and checks that
// task.meta survived: results.json, the history, the gate and every report come out of the merged run. Then the
// same for one stand-in matrix file split by AUDITBENCH_MATRIX, as `auditbench matrix --shard i/n` splits it.
const CONFIG = 'suites/report-merge/vitest.merge.config.ts';
let dir = '';
let reportDir = '';
let merged = { exitCode: 0 as number | undefined, stdout: '' };

// A clean child environment: never the real report dir, never this job's GitHub summary.
const childEnv = (extra: Record<string, string>): Record<string, string | undefined> => ({
  ...Object.fromEntries(Object.entries(process.env).filter(([k]) => !/^(GITHUB_|AUDITBENCH_)/.test(k))),
  AUDITBENCH_REPORT_DIR: reportDir,
  AUDITBENCH_GIT_BRANCH: 'feature/merge-check',
  AUDITBENCH_MAX_REGRESSION_PP: '5',
  ...extra,
});
const vitest = (args: string[], extra: Record<string, string> = {}) =>
  execa('vitest', ['run', '--config', CONFIG, ...args], {
    preferLocal: true,
    env: childEnv(extra),
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
    runId: 'fake-audit-a',
    profileId: null,
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
    const run = await vitest(['plugin-', `--shard=${shard}`, '--reporter=blob', `--outputFile=${out}`]);
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
    'history check: FAILED against main (allowed rise 5 pp): 1 regressed, 0 inconclusive',
  );
  expect(merged.stdout.trimEnd().split('\n').at(-1)).toBe('tests: 22 passed, 0 failed, 0 skipped');
});

test('summary.md, index.html and junit.xml are written from the merged run', async () => {
  const read = (name: string) => readFile(path.join(reportDir, name), 'utf8');
  expect(await read('summary.md')).toContain('| Fake audit B (fake-audit-b) |');
  expect((await read('index.html')).match(/data-chart="timeline"><svg/g)).toHaveLength(2);
  expect(await read('junit.xml')).toContain('tests="22"');
});

// `auditbench matrix --shard i/n` splits one file's cells (AUDITBENCH_MATRIX), not files: blobs of the same file
// meet in the merge, where Vitest keeps one module per file. Every shard's cells must reach the reports.
describe('shards of one file (the matrix)', () => {
  const all = planMatrix(fakeTargets, matrixProfiles(profiles), { kind: 'all' }).cells;
  let matrixReports = '';
  let matrixMerge = { exitCode: 0 as number | undefined, stdout: '' };

  beforeAll(async () => {
    matrixReports = path.join(dir, 'matrix-reports');
    const blobs = path.join(dir, 'matrix-blobs');
    for (const shard of ['1/2', '2/2']) {
      const out = path.join(blobs, `shard-${shard.replace('/', '-of-')}.json`);
      const run = await vitest(['matrix-cells', '--reporter=blob', `--outputFile=${out}`], {
        AUDITBENCH_MATRIX: shard,
      });
      if (run.exitCode !== 0) throw new Error(`matrix shard ${shard} failed:\n${run.stdout}\n${run.stderr}`);
    }
    const run = await vitest([`--merge-reports=${blobs}`], { AUDITBENCH_REPORT_DIR: matrixReports });
    matrixMerge = { exitCode: run.exitCode, stdout: run.stdout };
  }, 120_000);

  test('results.json holds every cell of the table once, from both shards', async () => {
    expect(all.length).toBeGreaterThan(4);
    const file = resultsFileSchema.parse(
      JSON.parse(await readFile(path.join(matrixReports, 'results.json'), 'utf8')),
    );
    const cells = (file.matrix ?? []).map((c) => `${c.plugin} @ ${c.server.image ?? 'local'}`);
    expect(cells.sort()).toEqual(all.map((c) => `${c.profile.title} @ ${c.target.image ?? 'local'}`).sort());
    const shards = new Set(file.matrix?.map((c) => c.reason));
    expect([...shards].sort()).toEqual(['a stand-in cell (shard 1/2)', 'a stand-in cell (shard 2/2)']);
  });

  test('the closing lines count every cell once and the file once; junit.xml has every cell', async () => {
    expect(matrixMerge.exitCode).toBe(0);
    expect(matrixMerge.stdout).toMatch(/time by file \(\d+s in 1 files\)/);
    expect(matrixMerge.stdout.trimEnd().split('\n').at(-1)).toBe(
      `tests: ${all.length} passed, 0 failed, 0 skipped`,
    );
    expect(await readFile(path.join(matrixReports, 'junit.xml'), 'utf8')).toContain(`tests="${all.length}"`);
  });
});
