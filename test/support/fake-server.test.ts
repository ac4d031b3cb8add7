import { describe, expect, test } from 'vitest';
import { SqlError } from '../../src/servers/sql-session.ts';
import { createFakeServer } from './fake-server.ts';

describe('answers from its rules', () => {
  const server = () =>
    createFakeServer({
      rules: [
        { match: 'SELECT 1', reply: { rows: [{ one: 1 }] } },
        {
          match: /^SHOW GLOBAL VARIABLES LIKE '(.*)'$/,
          reply: ({ match }) => ({ rows: [{ like: match?.[1] }] }),
        },
        { match: /^DROP/, reply: { warnings: [{ code: 1051, message: "Unknown table 'x'" }] } },
        {
          match: /^SELEC /,
          reply: { error: { errno: 1064, message: 'You have an error in your SQL syntax' } },
        },
        { match: /^SELECT/, reply: { rows: [{ second: true }] } },
      ],
    });

  test('a string rule matches the whole statement, whatever the case and spacing', async () => {
    expect((await server().query('  select   1 ')).rows).toEqual([{ one: 1 }]);
  });

  test('a regex rule hands its match to the reply; the first matching rule wins', async () => {
    const fake = server();
    expect((await fake.query("SHOW GLOBAL VARIABLES LIKE 'audit%'")).rows).toEqual([{ like: 'audit%' }]);
    expect((await fake.query('SELECT 2')).rows).toEqual([{ second: true }]);
  });

  test('warnings come back with level Warning unless the rule says otherwise', async () => {
    expect((await server().query('DROP TABLE IF EXISTS x')).warnings).toEqual([
      { level: 'Warning', code: 1051, message: "Unknown table 'x'" },
    ]);
  });

  test('an error reply rejects with an SqlError carrying errno, message and statement', async () => {
    const error = await server()
      .query("SELEC 'x'")
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(SqlError);
    expect(error).toMatchObject({ errno: 1064, sqlState: 'HY000' });
    expect((error as Error).message).toBe(
      "ERROR 1064 (HY000): You have an error in your SQL syntax [in: SELEC 'x']",
    );
  });

  test('an unmatched statement answers no rows, or rejects when the script asks for strictness', async () => {
    expect(await server().query('SET @a = 1')).toEqual({ rows: [], warnings: [] });
    await expect(createFakeServer({ unmatched: 'error' }).query('SET @a = 1')).rejects.toThrow(
      "The fake server has no rule for 'SET @a = 1'",
    );
  });
});

describe('records what happened, in order', () => {
  test('statements with their errno, my.cnf edits and restarts', async () => {
    const fake = createFakeServer({
      rules: [{ match: 'BAD', reply: { error: { errno: 1064, message: 'syntax' } } }],
    });
    await fake.query('SELECT 1');
    await fake.query('BAD').catch(() => {});
    await fake.editConfig({ set: { 'plugin-load-add': 'x.so', skip_name_resolve: null }, unset: ['y'] });
    await fake.restart();
    await fake.killAndStart();
    expect(fake.lines()).toEqual([
      'SQL SELECT 1',
      'SQL BAD → ERROR 1064',
      'my.cnf set plugin-load-add=x.so, skip_name_resolve, unset y',
      'restart',
      'kill and start',
    ]);
    expect(fake.transcript[1]).toEqual({ kind: 'sql', sql: 'BAD', errno: 1064 });
  });

  test('my.cnf names are normalised like the real targets do, so an edit replaces rather than duplicates', async () => {
    const fake = createFakeServer({ config: { 'audit-log-format': 'OLD' } });
    await fake.editConfig({ set: { audit_log_format: 'JSON' } });
    expect([...fake.config]).toEqual([['audit_log_format', 'JSON']]);
    await fake.editConfig({ unset: ['audit-log-format'] });
    expect(fake.config.size).toBe(0);
  });
});

describe('starts through the script', () => {
  const guarded = () =>
    createFakeServer({
      onStart: ({ config }) =>
        config.has('bogus') ? "[ERROR] mysqld: unknown variable 'bogus=1'." : undefined,
    });

  test('a refused start rejects with the error-log line, and the server stays down', async () => {
    const fake = guarded();
    await fake.editConfig({ set: { bogus: '1' } });
    await expect(fake.restart()).rejects.toThrow(
      /did not start\. Error log tail:\n.*unknown variable 'bogus=1'/,
    );
    expect(fake.running).toBe(false);
    expect(fake.lines().at(-1)).toBe('restart → refused');
    const error = await fake.query('SELECT 1').catch((e: unknown) => e);
    expect(error).not.toBeInstanceOf(SqlError);
    expect((error as Error).message).toMatch(/ECONNREFUSED.*not running/);
  });

  test('once my.cnf is fixed it starts again', async () => {
    const fake = guarded();
    await fake.editConfig({ set: { bogus: '1' } });
    await fake.restart().catch(() => {});
    await fake.editConfig({ unset: ['bogus'] });
    await fake.restart();
    expect(fake.running).toBe(true);
    expect(await fake.errorLogTail()).toContain("unknown variable 'bogus=1'");
  });

  test('the first start goes through the hook too, and a refusal there throws', () => {
    expect(() => createFakeServer({ config: { bogus: '1' }, onStart: () => 'no' })).toThrow('did not start');
  });

  test('stop is idempotent and ends the server for good', async () => {
    const fake = createFakeServer();
    await fake.stop();
    await fake[Symbol.asyncDispose]();
    await expect(fake.query('SELECT 1')).rejects.toThrow('not running');
    await expect(fake.restart()).rejects.toThrow('was stopped');
  });
});

describe('keeps a datadir in memory', () => {
  test('lists one directory level with sizes, reads contents back', async () => {
    const fake = createFakeServer({ files: { 'audit.log': 'abc', 'logs/a.log': 'xy' } });
    fake.appendFile('audit.log', 'de');
    expect(await fake.listFiles()).toEqual([{ name: 'audit.log', sizeBytes: 5, fileId: expect.any(String) }]);
    expect(await fake.listFiles('logs')).toEqual([
      { name: 'logs/a.log', sizeBytes: 2, fileId: expect.any(String) },
    ]);
    expect((await fake.readFile('./audit.log')).toString()).toBe('abcde');
  });

  test('a rename keeps the file id, as an inode survives a rename', async () => {
    const fake = createFakeServer({ files: { 'audit.log': 'old' } });
    const [before] = await fake.listFiles();
    fake.renameFile('audit.log', 'audit.log.1');
    fake.writeFile('audit.log', 'new');
    const after = await fake.listFiles();
    expect(after.find((f) => f.name === 'audit.log.1')?.fileId).toBe(before?.fileId);
    expect(after.find((f) => f.name === 'audit.log')?.fileId).not.toBe(before?.fileId);
  });

  test('a missing file rejects naming it', async () => {
    const fake = createFakeServer();
    await expect(fake.readFile('nope.log')).rejects.toThrow("'nope.log' does not exist");
    expect(() => fake.removeFile('nope.log')).toThrow('does not exist');
  });

  test('knows which plugin libraries are present', async () => {
    const fake = createFakeServer({ pluginFiles: ['audit_log.so'] });
    expect(await fake.pluginFileExists('audit_log.so')).toBe(true);
    expect(await fake.pluginFileExists('libaudit_plugin.so')).toBe(false);
  });
});
