import { readFileSync } from 'node:fs';
import { describe, expect, test } from 'vitest';
import { judgeSysbenchRun } from './sysbench-run.ts';

function fixture(name: string): string {
  return readFileSync(new URL(`../../fixtures/sysbench/${name}`, import.meta.url), 'utf8');
}

describe('judgeSysbenchRun', () => {
  test('a clean run with exit code 0 is valid', () => {
    const run = judgeSysbenchRun({ stdout: fixture('run-oltp-read-write.txt'), stderr: '' });
    expect(run.ok).toBe(true);
    expect(run.result?.transactions).toBe(6550);
  });

  test.for([
    {
      name: 'ignored deadlocks',
      file: 'run-ignored-errors-deadlocks.txt',
      failure: undefined,
      reason:
        'sysbench ignored 1533 SQL errors (43.354% of transactions, above the 0% tolerated), first in the second ending at 1s (oltp_* ignores deadlocks',
      hasResult: true,
    },
    {
      name: 'a dropped table under --mysql-ignore-errors=all',
      file: 'run-ignored-errors-dropped-table.txt',
      failure: undefined,
      reason:
        'sysbench ignored 2968 SQL errors (175.517% of transactions, above the 0% tolerated), first in the second ending at 3s',
      hasResult: true,
    },
    {
      name: 'a lost connection',
      file: 'run-fatal-lost-connection.txt',
      failure: 'exited with code 1',
      reason:
        'sysbench exited with code 1:\n' +
        "FATAL: mysql_stmt_execute() returned error 2013 (Lost connection to server during query) for query 'COMMIT'\n",
      hasResult: false,
    },
    {
      name: 'a crash',
      file: 'run-truncated-segfault.txt',
      failure: 'was killed by SIGSEGV',
      reason: 'sysbench was killed by SIGSEGV:\nlast per-second line: [ 3s ] thds: 4 tps: 618.93',
      hasResult: false,
    },
  ])('a run with $name is invalid', ({ file, failure, reason, hasResult }) => {
    const run = judgeSysbenchRun({ stdout: fixture(file), stderr: '', failure });
    expect(run.ok).toBe(false);
    if (run.ok) return;
    expect(run.reason).toContain(reason);
    expect(run.result !== undefined).toBe(hasResult);
  });

  test('prints each FATAL line once although every thread repeats it', () => {
    const stdout = fixture('run-fatal-lost-connection.txt');
    const run = judgeSysbenchRun({ stdout, stderr: '', failure: 'exited with code 1' });
    // 8 FATAL lines from 4 threads, 4 of them distinct.
    expect(stdout.match(/^FATAL:/gm)).toHaveLength(8);
    expect(run.ok || run.reason.split('\n').slice(1)).toHaveLength(4);
  });

  test('reports reconnects and errors together', () => {
    const stdout = fixture('run-ignored-errors-deadlocks.txt').replace(
      'reconnects:                          0      (0.00 per sec.)',
      'reconnects: 2 (0.40 per sec.)',
    );
    const run = judgeSysbenchRun({ stdout, stderr: '' });
    expect(run.ok || run.reason).toMatch(/ignored 1533 SQL errors.*; sysbench reconnected 2 times/);
  });

  test('a truncated report with exit code 0 is invalid and keeps stderr in the reason', () => {
    const run = judgeSysbenchRun({ stdout: fixture('run-truncated-segfault.txt'), stderr: 'boom\n' });
    expect(run).toEqual({
      ok: false,
      result: undefined,
      stderr: 'boom\n',
      reason: expect.stringMatching(/no 'SQL statistics:' block.*at 3s:\nboom$/s),
    });
  });

  test('a complete report with a non-zero exit is invalid but keeps the result', () => {
    const run = judgeSysbenchRun({
      stdout: fixture('run-oltp-read-write.txt'),
      stderr: '',
      failure: 'exited with code 2',
    });
    expect(run).toMatchObject({ ok: false, reason: expect.stringContaining('exited with code 2') });
    expect(run.result?.queries).toBe(131_000);
  });
});

describe('tolerated ignored errors', () => {
  const recorded = readFileSync(
    new URL('../../fixtures/sysbench/run-ignored-errors-deadlocks.txt', import.meta.url),
    'utf8',
  );

  test('errors within the tolerance keep a run valid; above it they do not', () => {
    // The recording: 1533 ignored deadlocks in 3536 transactions (43%).
    expect(judgeSysbenchRun({ stdout: recorded, stderr: '' }, { maxIgnoredErrorPct: 50 }).ok).toBe(true);
    const strict = judgeSysbenchRun({ stdout: recorded, stderr: '' }, { maxIgnoredErrorPct: 0.05 });
    expect(strict.ok).toBe(false);
    if (!strict.ok) expect(strict.reason).toContain('above the 0.05% tolerated');
  });
});
