import { describe, expect, test } from 'vitest';
import { LogGrowth, selectLogFiles } from './log-files.ts';

const file = (name: string, sizeBytes: number, fileId = name) => ({ name, sizeBytes, fileId });

describe('selectLogFiles', () => {
  test('finds the current log and rotated copies, oldest first, and nothing else', () => {
    const listing = [
      file('server_audit.log', 10),
      file('server_audit.log.2', 30),
      file('server_audit.log.1', 20),
      file('server_audit.log.bak', 1),
      file('ibdata1', 99),
      file('server_audit.log.10', 40),
    ];
    expect(selectLogFiles(listing, 'server_audit.log').map((f) => [f.name, f.generation])).toEqual([
      ['server_audit.log.10', 10],
      ['server_audit.log.2', 2],
      ['server_audit.log.1', 1],
      ['server_audit.log', 0],
    ]);
  });

  test('zero-padded suffixes and subdirectories', () => {
    const listing = [file('audit/a.log.01', 5), file('audit/a.log', 1), file('a.log', 7)];
    expect(selectLogFiles(listing, 'audit/a.log').map((f) => f.name)).toEqual([
      'audit/a.log.01',
      'audit/a.log',
    ]);
  });
});

describe('LogGrowth', () => {
  test('counts bytes across a rotation once, including the file that moved', () => {
    const growth = new LogGrowth([file('log', 100, 'i1')]);
    growth.observe([file('log', 900, 'i1')]);
    // rotated: i1 renamed to log.1 and finished at 1000, new i2 started
    growth.observe([file('log.1', 1000, 'i1'), file('log', 250, 'i2')]);
    expect(growth.bytesWritten).toBe(900 + 250);
  });

  test('a file deleted after being seen keeps its bytes', () => {
    const growth = new LogGrowth([]);
    growth.observe([file('log', 500, 'a')]);
    growth.observe([file('log', 20, 'b')]);
    expect(growth.bytesWritten).toBe(520);
  });
});
