// Child of suites/precision/slow-fs.suite.ts: a local server with its general log on the slow log filesystem (20 ms a
// write), statements writing to it; it waits to be killed (SIGINT or SIGKILL), so the test can see nothing left.
import { privateRoot } from '../../src/faults/fault-fs.ts';
import { mountSlowFs } from '../../src/faults/slow-fs.ts';
import { startLocalServer } from '../../src/servers/local-server.ts';
import { buildSlowFs } from '../../test/support/slow-fs-binary.ts';

const server = await startLocalServer({
  mysqldPath: process.env.AUDITBENCH_MYSQLD ?? null,
  searchPath: process.env.PATH ?? '',
});
const { rows } = await server.query('SELECT @@datadir AS d');
const datadir = String(rows[0]?.d);
const binary = await buildSlowFs(privateRoot(datadir));
const fs = await mountSlowFs(binary, datadir, 'auditbench_slowfs', 20);
await server.query("SET GLOBAL general_log_file = 'auditbench_slowfs/general.log'");
await server.query('SET GLOBAL general_log = ON');
// Statements keep waiting in the slow write: the state a kill must clean up.
void (async () => {
  for (;;) await server.query('SELECT 1').catch(() => {});
})();
console.log(`MOUNTED ${fs.mountPoint}`);
await new Promise(() => {});
