import { chmod, chown, mkdir, mkdtemp, readFile, rm, stat, symlink, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, test, vi } from 'vitest';
import { mcafeeOffsetLayout as layout } from '../../profiles/mcafee-offsets.ts';
import {
  type CachedOffsets,
  cachedOffsetsSchema,
  freshWorkDir,
  offsetsCacheDir,
  readCachedOffsets,
  writeCachedOffsets,
} from './offsets-cache.ts';
import { cachedOrDerived } from './supplied-offsets.ts';

const asRoot = process.getuid?.() === 0;
const numbers = layout.fields.map((_, i) => String(i * 8)).join(',');
const good: CachedOffsets = {
  value: numbers,
  lines: [' 1 THD.query_id   source   6712    6720  (binary)'],
  mariadbd: '10.11.19-MariaDB-0+deb12u1',
  headers: '1:10.11.19-0+deb12u1',
};
let scratch = '';
let n = 0;
const fresh = async () => {
  const dir = path.join(scratch, `case-${++n}`);
  await mkdir(dir, { mode: 0o755 });
  return dir;
};
const entryIn = async (dir: string, text: string, mode = 0o644) => {
  const file = path.join(dir, 'abc.json');
  await writeFile(file, text, { mode });
  await chmod(file, mode);
  return file;
};

beforeAll(async () => {
  scratch = await mkdtemp(path.join(os.tmpdir(), 'offsets-cache-test-'));
});
afterAll(() => rm(scratch, { recursive: true, force: true }));

describe('the entry schema: its value goes into my.cnf, so numbers only', () => {
  test.for([
    ['a letter', { value: numbers.replace(/^0/, 'x') }, 'value is not comma-separated numbers'],
    [
      'a my.cnf line',
      { value: `${numbers}\nplugin_load_add=evil.so` },
      'value is not comma-separated numbers',
    ],
    ['one number short', { value: numbers.replace(/,\d+$/, '') }, 'value does not hold 26 numbers'],
    ['an escape for the terminal', { lines: ['\u001b[2J'] }, 'lines.0 holds a control character'],
    ['a field of its own', { extra: 1 }, 'Unrecognized key'],
  ] as const)('%s is refused', ([, change, says]) => {
    const parsed = cachedOffsetsSchema(layout).safeParse({ ...good, ...change });
    expect(parsed.success).toBe(false);
    const issue = parsed.error?.issues[0];
    expect(`${issue?.path.join('.')} ${issue?.message}`).toContain(says);
  });

  test('a derived entry passes', () => {
    expect(cachedOffsetsSchema(layout).parse(good)).toEqual(good);
  });
});

describe('reading an entry', () => {
  test('a whole entry of ours is found; a missing one is missing', async () => {
    const dir = await fresh();
    expect(await readCachedOffsets(await entryIn(dir, JSON.stringify(good)), layout)).toEqual({
      found: good,
    });
    expect(await readCachedOffsets(path.join(dir, 'none.json'), layout)).toEqual({ missing: true });
  });

  test.for([
    ['truncated', '{"value":"0,8,', 0o644, 'it is not whole JSON (14 bytes)'],
    ['group-writable', JSON.stringify(good), 0o664, 'it is writable by its group (mode 664)'],
    ['world-writable', JSON.stringify(good), 0o646, 'it is writable by every user (mode 646)'],
    ['not numbers', JSON.stringify({ ...good, value: '1;2' }), 0o644, 'value is not comma-separated numbers'],
  ] as const)('%s: bad, with why', async ([, text, mode, why]) => {
    expect(await readCachedOffsets(await entryIn(await fresh(), text, mode), layout)).toEqual({ bad: why });
  });

  test('a symlink is not followed', async () => {
    const dir = await fresh();
    const target = await entryIn(dir, JSON.stringify(good));
    await symlink(target, path.join(dir, 'link.json'));
    expect(await readCachedOffsets(path.join(dir, 'link.json'), layout)).toEqual({ bad: 'it is a symlink' });
  });

  test.skipIf(!asRoot)('another user’s entry is bad', async () => {
    const file = await entryIn(await fresh(), JSON.stringify(good));
    await chown(file, 65_534, 65_534);
    expect(await readCachedOffsets(file, layout)).toEqual({
      bad: 'it is owned by uid 65534, not by the running user (uid 0)',
    });
  });
});

describe('the cache folders', () => {
  test('made from the root down, writable by no one else', async () => {
    const root = path.join(await fresh(), 'auditbench');
    const made = await offsetsCacheDir(root, layout);
    expect(made).toEqual({ dir: path.join(root, 'offsets', layout.id) });
    for (const level of [root, path.join(root, 'offsets'), path.join(root, 'offsets', layout.id)]) {
      expect((await stat(level)).mode & 0o022).toBe(0);
    }
  });

  test('a symlinked or group-writable level makes the cache unusable, with the folder and why', async () => {
    const base = await fresh();
    const elsewhere = await fresh();
    await symlink(elsewhere, path.join(base, 'auditbench'));
    expect(await offsetsCacheDir(path.join(base, 'auditbench'), layout)).toEqual({
      why: `${path.join(base, 'auditbench')}: it is a symlink`,
    });
    const open = path.join(await fresh(), 'auditbench');
    await mkdir(path.join(open, 'offsets'), { recursive: true });
    await chmod(path.join(open, 'offsets'), 0o775);
    expect(await offsetsCacheDir(open, layout)).toEqual({
      why: `${path.join(open, 'offsets')}: it is writable by its group (mode 775)`,
    });
  });

  test('writing an entry never goes through a symlink at its place or beside it', async () => {
    const dir = await fresh();
    const victim = await entryIn(await fresh(), 'precious\n');
    await symlink(victim, path.join(dir, 'e.json'));
    await symlink(victim, path.join(dir, 'e.json.part'));
    await writeCachedOffsets(path.join(dir, 'e.json'), good);
    expect(await readFile(victim, 'utf8')).toBe('precious\n');
    expect(await readCachedOffsets(path.join(dir, 'e.json'), layout)).toEqual({ found: good });
  });

  test('a work folder planted as a symlink is replaced, its target untouched', async () => {
    const dir = await fresh();
    const elsewhere = await fresh();
    await writeFile(path.join(elsewhere, 'keep'), 'x');
    await symlink(elsewhere, path.join(dir, 'abc.work'));
    await freshWorkDir(path.join(dir, 'abc.work'));
    const info = await stat(path.join(dir, 'abc.work'));
    expect(info.isDirectory()).toBe(true);
    expect(await readFile(path.join(elsewhere, 'keep'), 'utf8')).toBe('x');
  });
});

test('a truncated entry is derived again with one line saying so, never a SyntaxError', async () => {
  const root = path.join(await fresh(), 'auditbench');
  const binary = path.join(scratch, 'mariadbd');
  await writeFile(binary, 'not a server\n');
  const dir = await offsetsCacheDir(root, layout);
  if (!('dir' in dir)) throw new Error(dir.why);
  // sha256 of 'not a server\n', the key the cache files the binary under.
  const sha = '765d1df0df6c267c8bd72462a9a3ba96ebd230aeba9572c8ffd99bf8bb28f677';
  await writeFile(path.join(dir.dir, `${sha}.json`), '{"value":"0,8,');
  const lines: string[] = [];
  vi.spyOn(process.stderr, 'write').mockImplementation((text) => lines.push(String(text)) > 0);
  const cannot = (why: string) => new Error(`Cannot derive audit_offsets: ${why}`);
  await expect(cachedOrDerived({ path: binary, version: '10.11.19' }, layout, cannot, root)).rejects.toThrow(
    /^Cannot derive audit_offsets: /,
  );
  vi.restoreAllMocks();
  expect(lines).toContain(
    `auditbench offsets: the cached entry ${path.join(dir.dir, `${sha}.json`)} is not used (it is not whole JSON (14 bytes)): deriving it again\n`,
  );
});
