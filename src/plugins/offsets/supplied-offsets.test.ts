import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, expect, test, vi } from 'vitest';
import { createFakeServer } from '../../../test/support/fake-server.ts';
import { mcafeeOffsetLayout } from '../../profiles/mcafee-offsets.ts';
import type { StartedServer } from '../../servers/started-server.ts';
import { runSteps } from '../steps.ts';
import { offsetsStep } from './supplied-offsets.ts';

let dir = '';
beforeAll(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), 'auditbench-offsets-test-'));
  // Not a McAfee library: a file whose strings carry another version.
  await writeFile(path.join(dir, 'libaudit_plugin.so'), '\x7fELF\x00audit-version\x001.2.4-1234567\x00');
});
afterAll(() => rm(dir, { recursive: true, force: true }));

/** A local-looking server whose option file says `options`, with its plugin directory at `dir`. */
function localServer(options: Record<string, string>): StartedServer {
  const fake = createFakeServer({
    info: { flavor: 'mariadb', version: '10.11.19-MariaDB-0+deb12u1' },
    rules: [{ match: 'SELECT @@plugin_dir AS dir', reply: { rows: [{ dir }] } }],
  });
  return Object.assign(fake, {
    binaryPath: '/usr/sbin/mariadbd',
    configOption: (name: string) => options[name.replaceAll('-', '_')],
  });
}

test('offsets the *.cnf beside the library gives are used as they are: nothing derived, nothing written', async () => {
  vi.spyOn(process.stderr, 'write').mockImplementation(() => true);
  const server = localServer({ loose_audit_offsets: '1,2,3' });
  const edit = offsetsStep(mcafeeOffsetLayout);
  if (edit.kind !== 'derive') throw new Error('expected a derive step');
  expect(await edit.derive(server)).toEqual({});
  vi.restoreAllMocks();
});

test('a library of another layout: refused before INSTALL, in one line saying what to supply', async () => {
  vi.spyOn(process.stderr, 'write').mockImplementation(() => true);
  const failure = runSteps(localServer({}), [offsetsStep(mcafeeOffsetLayout)], 'Installing AUDIT');
  await expect(failure).rejects.toThrow(
    /^Installing AUDIT failed at step 1 \(audit_offsets for this server .*\) on mariadb 10\.11\.19-MariaDB-0\+deb12u1: Cannot derive audit_offsets for 10\.11\.19-MariaDB-0\+deb12u1: libaudit_plugin\.so has no version string 1\.2\.5-<revision>, so its audit_offsets layout is not one auditbench knows \(ThdOffsets-1\.2\.5\); put loose-audit_offsets=<26 numbers for this server> in a \*\.cnf beside libaudit_plugin\.so in AUDITBENCH_PLUGIN_DIR$/,
  );
  vi.restoreAllMocks();
});
