import { mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, expect, test, vi } from 'vitest';
import type { Vitest } from 'vitest/node';
import { loadEnvironment } from '../src/config/env.ts';
import { recordedReportInput } from '../test/support/report-fixtures.ts';
import AuditbenchReporter, { runWriters, WRITERS } from './auditbench-reporter.ts';
import { buildSnapshot } from './invocation-snapshot.ts';
import type { ReportWriter } from './writers/writer.ts';

afterEach(() => {
  vi.restoreAllMocks();
  process.exitCode = undefined;
});

const snapshot = () => {
  const { file, revision, prior } = recordedReportInput();
  const config = loadEnvironment({ AUDITBENCH_REPORT_DIR: '/tmp/r' });
  return buildSnapshot({
    config,
    policy: { maxRegressionPp: null, maxCountedRisePp: 1, inconclusive: 'fail' as const },
    file,
    revision,
    invocationId: 'invocation-1',
    prior,
    historyWarnings: [],
  });
};

test('the writers run in the order the reports print, the gate last', () => {
  expect(WRITERS.map((w) => w.what)).toEqual([
    'write results.json',
    'append to the history',
    'print the summary',
    'write summary.md',
    'write index.html',
    'compare with the history',
  ]);
});

test('a writer that fails prints one line, sets exit code 1, and the next writer still runs', async () => {
  const stderr = vi.spyOn(process.stderr, 'write').mockReturnValue(true);
  const calls: string[] = [];
  const writer = (what: string, fails: boolean): ReportWriter => ({
    what,
    write: async () => {
      calls.push(what);
      if (fails) throw new Error('EACCES: permission denied');
    },
  });
  await runWriters([writer('write a.json', true), writer('write b.md', false)], snapshot());
  expect(calls).toEqual(['write a.json', 'write b.md']);
  expect(stderr.mock.calls.map(([line]) => line)).toEqual([
    'auditbench: could not write a.json: EACCES: permission denied\n',
  ]);
  expect(process.exitCode).toBe(1);
});

test('a junit.xml that is a symbolic link is not opened: one line, exit code 1, the target as it was', async () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'reporter-junit-'));
  try {
    mkdirSync(path.join(dir, 'reports'));
    writeFileSync(path.join(dir, 'precious'), 'kept\n');
    const link = path.join(dir, 'reports', 'junit.xml');
    symlinkSync(path.join(dir, 'precious'), link);
    const stderr = vi.spyOn(process.stderr, 'write').mockReturnValue(true);
    const reporter = new AuditbenchReporter({ junit: { outputFile: 'reports/junit.xml' } });
    await reporter.onInit({ config: { root: dir } } as Vitest);
    expect(stderr).toHaveBeenCalledWith(
      expect.stringMatching(new RegExp(`^auditbench: could not write junit.xml: ${link} is a symbolic link`)),
    );
    expect(process.exitCode).toBe(1);
    expect(readFileSync(path.join(dir, 'precious'), 'utf8')).toBe('kept\n');
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
