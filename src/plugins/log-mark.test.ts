import { expect, test } from 'vitest';
import { createFakeServer, type FakeServer } from '../../test/support/fake-server.ts';
import { serverAudit } from '../profiles/server-audit.ts';
import { readSpan, takeMark } from './log-mark.ts';

// server_audit's rotation, as file_logger.c does it: the current file renamed to .1 (.1 to .2, …, the oldest
// deleted when `rotations` are kept), and a new current file. The fake keeps a file's id across a rename, as a file on
// disk keeps its inode.
const LOG = 'server_audit.log';
const line = (id: number, sql: string) => `20261207 13:00:00,vm,admin,localhost,4,${id},QUERY,,'${sql}',0\n`;

async function rotate(server: FakeServer, rotations: number) {
  const names = [LOG, ...Array.from({ length: rotations }, (_, i) => `${LOG}.${i + 1}`)];
  const present = new Set((await server.listFiles('.')).map((f) => f.name));
  const oldest = names.at(-1) ?? LOG;
  if (oldest !== LOG && present.has(oldest)) server.removeFile(oldest);
  for (let i = names.length - 2; i >= 0; i--) {
    const [from, to] = [names[i] ?? LOG, names[i + 1] ?? LOG];
    if (present.has(from)) server.renameFile(from, to);
  }
  server.writeFile(LOG, '');
}

const statements = async (server: FakeServer, mark: Awaited<ReturnType<typeof takeMark>>) => {
  const span = await readSpan(server, serverAudit, mark);
  return span.events.slice(span.from).map((e) => e.queryText);
};

test('the span follows its file through a rotation: exactly the records after the mark', async () => {
  const server = createFakeServer({ files: { [LOG]: line(1, 'before') } });
  const mark = await takeMark(server, serverAudit);
  server.appendFile(LOG, line(2, 'after, same file'));
  await rotate(server, 1);
  server.appendFile(LOG, line(3, 'after, new file'));
  expect(await statements(server, mark)).toEqual(['after, same file', 'after, new file']);
});

test('a mark whose file rotation deleted fails, naming the file', async () => {
  const server = createFakeServer({ files: { [LOG]: line(1, 'before') } });
  const mark = await takeMark(server, serverAudit);
  server.appendFile(LOG, line(2, 'DROP TABLE shop.cards'));
  await rotate(server, 1);
  await rotate(server, 1);
  await expect(readSpan(server, serverAudit, mark)).rejects.toThrow(
    /^the log file the mark was taken in is gone: server_audit\.log \(file id fake-1, 59 bytes at the mark\) is no longer among the plugin's files \(server_audit\.log\.1, server_audit\.log\): rotation deleted it/,
  );
});

test("a file with the mark's identity but other bytes before the offset is another file (a reused inode)", async () => {
  const server = createFakeServer({ files: { [LOG]: line(1, 'before') } });
  const mark = await takeMark(server, serverAudit);
  server.writeFile(LOG, line(7, 'another file on the same inode'));
  await expect(readSpan(server, serverAudit, mark)).rejects.toThrow(
    /the log file the mark was taken in is gone/,
  );
});

test("the span keeps the lines after the mark that do not parse, not those before, nor the current file's unfinished one", async () => {
  const unreadable = "20261207 13:00:00,vm,ops,admin,localhost,4,9,QUERY,,'DROP TABLE t',0\n";
  const server = createFakeServer({ files: { [LOG]: `${unreadable}${line(1, 'before')}` } });
  const mark = await takeMark(server, serverAudit);
  server.appendFile(LOG, `${unreadable}${line(2, 'after')}20261207 13:00:0`);
  const span = await readSpan(server, serverAudit, mark);
  expect(span.events.slice(span.from).map((e) => e.queryText)).toEqual(['after']);
  expect(span.unreadable).toEqual([
    {
      file: LOG,
      line: 3,
      text: unreadable.trim(),
      reason: 'not a server_audit record: expected timestamp,host,user,host,id,id,OPERATION,db,',
    },
  ]);
});

test('a mark taken before the plugin wrote any file spans every file', async () => {
  const server = createFakeServer();
  const mark = await takeMark(server, serverAudit);
  server.writeFile(LOG, line(1, 'first'));
  expect(await statements(server, mark)).toEqual(['first']);
});
