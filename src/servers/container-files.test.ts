import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { execa } from 'execa';
import { afterAll, expect, test } from 'vitest';
import { listFilesCommand, parseFileListing } from './container-files.ts';

test.for([
  ['nothing', '', []],
  [
    'one file',
    '12 340 server_audit.log\0',
    [{ name: 'logs/server_audit.log', sizeBytes: 340, fileId: '12' }],
  ],
  ['a name with spaces', '7 0 my audit.log\0', [{ name: 'logs/my audit.log', sizeBytes: 0, fileId: '7' }]],
  [
    'a rotated copy beside the log',
    '12 340 server_audit.log\x0013 1048576 server_audit.log.1\0',
    [
      { name: 'logs/server_audit.log', sizeBytes: 340, fileId: '12' },
      { name: 'logs/server_audit.log.1', sizeBytes: 1_048_576, fileId: '13' },
    ],
  ],
] as const)('parseFileListing: %s', ([, out, files]) => {
  expect(parseFileListing(out, 'logs')).toEqual(files);
});

test('the listing skips a file renamed mid-listing: find is told to ignore the readdir race', () => {
  const command = listFilesCommand('/var/lib/mysql/logs');
  // A global option: with the other global options, before the tests.
  expect(command).toContain('-ignore_readdir_race');
  expect(command.indexOf('-ignore_readdir_race')).toBeLessThan(command.indexOf('-type'));
});

const dir = await mkdtemp(path.join(tmpdir(), 'container-files-'));
afterAll(() => rm(dir, { recursive: true, force: true }));

test('GNU find takes the command as it is, silently, and its output parses', async () => {
  await writeFile(path.join(dir, 'server_audit.log'), 'abc');
  await writeFile(path.join(dir, 'my audit.log'), '');
  const [find = 'find', ...args] = listFilesCommand(dir);
  const found = await execa(find, args, { reject: false });
  expect(found.stderr).toBe('');
  expect(found.exitCode).toBe(0);
  const files = parseFileListing(found.stdout, 'logs').map(({ name, sizeBytes }) => ({ name, sizeBytes }));
  expect(files.sort((a, b) => a.name.localeCompare(b.name))).toEqual([
    { name: 'logs/my audit.log', sizeBytes: 0 },
    { name: 'logs/server_audit.log', sizeBytes: 3 },
  ]);
});
