// Child of suites/faults.test.ts: a local server, the fault filesystem with the general log on it, frozen with a
// statement blocked in the write; it waits to be SIGKILLed, so the test can see the reaper leave nothing behind.
import { mountFaultFs } from '../src/faults/fault-fs.ts';
import { startLocalServer } from '../src/servers/local-server.ts';

const server = await startLocalServer({
  mysqldPath: process.env.AUDITBENCH_MYSQLD ?? null,
  searchPath: process.env.PATH ?? '',
});
const { rows } = await server.query('SELECT @@datadir AS d');
const fs = await mountFaultFs(String(rows[0]?.d), 'auditbench_faultlog', 64);
await server.query("SET GLOBAL general_log_file = 'auditbench_faultlog/general.log'");
await server.query('SET GLOBAL general_log = ON');
await fs.freeze();
// A statement now blocks in the frozen write: the state a SIGKILL must clean up.
void server.query('SELECT 1').catch(() => {});
console.log(`FROZEN ${fs.mountPoint}`);
await new Promise(() => {});
