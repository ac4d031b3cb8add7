import { afterAll, beforeAll, expect, test } from 'vitest';
import { createDbaRepo, type DbaRepo, removePackedTarball } from '../test/support/dba-repo.ts';

// The PR gate in a DBA's repository: auditbench packed and installed there, two runs (one reading an option file)
// committed on main, then branches that change one thing each, gated with `npx auditbench gate`.

const config = (events: string) => `import { defineConfig, fromCnf } from 'auditbench';

export default defineConfig({
  runs: [
    { id: 'events', plugin: 'server_audit', settings: { server_audit_events: '${events}' } },
    { id: 'ops-cnf', plugin: 'server_audit', cnf: fromCnf('ops/audit.cnf') },
  ],
});
`;

const optionFile = (events: string, more = '') => `[mariadb]
server_audit_events = ${events}
server_audit_file_rotations = 3
${more}`;

let repo: DbaRepo;
const git = async (...args: string[]) => {
  const result = await repo.exec('git', args);
  if (result.exitCode !== 0) throw new Error(`git ${args.join(' ')}: ${result.all}`);
};
// Each gated branch measures one comparison on quick: a toggled run, stopped once its interval clears the limit.
// The gate's own lines go to the log, so a CI run shows each verdict and its interval.
const gate = async (args: string[] = [], allowedPp = 5, env: Record<string, string> = {}) => {
  const result = await repo.auditbench(['gate', ...args], {
    env: { AUDITBENCH_MAX_REGRESSION_PP: String(allowedPp), AUDITBENCH_DOCKER: '0', ...env },
    timeoutMs: 420_000,
  });
  const lines = result.all.split('\n');
  const own = args.includes('--list') ? lines : lines.filter((line) => line.startsWith('auditbench gate'));
  console.log(`[gate-from-repo] gate ${args.join(' ')} → exit ${result.exitCode}\n${own.join('\n')}`);
  return result;
};
// How a gate ended, as an assertion's message: a CI log keeps only the first line of an error, and the whole output
// (which starts with the selection) said nothing of the verdict there.
const outcome = (result: { exitCode: number; all: string }) => {
  const verdicts = result.all
    .split('\n')
    .filter((line) => /^auditbench gate: (FAILED|passed|inconclusive)/.test(line));
  const last = result.all.trim().split('\n').at(-1) ?? '';
  return `exit ${result.exitCode}; ${verdicts.length > 0 ? verdicts.join(' | ') : `no verdict line; last line: ${last}`}`;
};
// A change that costs nothing is judged at 15 points: the verdict that matters is that it is not FAILED. Its interval
// can still straddle 15 on a busy step of this VM (a null change once measured -4.9% to 13.8%), so its gate runs with
// AUDITBENCH_INCONCLUSIVE=pass and accepts 'passed' or 'inconclusive (passes)', both naming the configurations.
const nullChange = { AUDITBENCH_INCONCLUSIVE: 'pass' };
const notFailed = '(passed|inconclusive \\(passes\\))';

beforeAll(async () => {
  repo = await createDbaRepo({
    'auditbench.config.ts': config('CONNECT'),
    'ops/audit.cnf': optionFile('QUERY_DDL'),
  });
}, 600_000);
afterAll(async () => {
  await repo?.[Symbol.asyncDispose]();
  // The packed tarball's folder: Vitest's workers may stop before the process-exit handler that would remove it.
  await removePackedTarball();
});

test('a changed option-file line selects exactly the run that reads it, with the reason and the design', async () => {
  await git('checkout', '--quiet', '-b', 'dml');
  await repo.commit({ 'ops/audit.cnf': optionFile('QUERY_DDL,QUERY_DML') }, 'Audit DML too');
  const listed = await gate(['--list']);
  expect(listed.exitCode, listed.all).toBe(0);
  expect(listed.all).toMatch(/1 file\(s\) changed since main/);
  expect(listed.all).toContain(
    "run ops-cnf: settings, profile or option file changed (server_audit_events: QUERY_DDL → QUERY_DDL,QUERY_DML); startup options differ: server_audit_events is SERVER_AUDIT's own, dynamic and global on MariaDB: expects one toggled run, SET GLOBAL per arm; the server confirms it",
  );
  expect(listed.all).not.toContain('run events');
});

// Still on that branch: the server reports server_audit_events dynamic and global, so base and head are the two arms
// of one toggled run (before, a restart before each arm: 6 pairs in 173 s on smoke, ±19.5 pp, inconclusive). Logging
// every DML statement costs several points; the assertion is the design, not a verdict a busy step could move.
test('the option-file change is measured toggled, saying the server reported the option dynamic', async () => {
  const gated = await gate([], 1);
  expect(gated.all, outcome(gated)).toMatch(
    /(FAILED|passed|inconclusive)[^:]*: ops-cnf, base \(server_audit_events=QUERY_DDL\) vs head \(server_audit_events=QUERY_DDL,QUERY_DML\): head is \d+\.\d% (slower|faster) than base \(95% CI [-\d.]+% to [-\d.]+%\).*\[toggle, \d+ pairs/,
  );
  expect(gated.all, outcome(gated)).toContain(
    'auditbench gate: ops-cnf measured toggled: server_audit_events is dynamic and global (READ_ONLY = NO, VARIABLE_SCOPE = GLOBAL): one toggled run, SET GLOBAL per arm',
  );
  await git('checkout', '--quiet', 'main');
}, 450_000);

test('a comment and reordered lines in the option file select nothing, say why, and exit 0', async () => {
  await git('checkout', '--quiet', '-b', 'comment');
  const reordered =
    '# Audit settings, kept by ops\n[mariadb]\nserver_audit_file_rotations = 3  # keep three\nserver_audit_events = QUERY_DDL\n';
  await repo.commit({ 'ops/audit.cnf': reordered }, 'Say who keeps the audit settings');
  const gated = await gate();
  expect(gated.all).toContain(
    'run ops-cnf: ops/audit.cnf changed, but no option it sets did (a comment, blank lines or their order): nothing to measure',
  );
  expect(gated.all).toContain('auditbench gate: nothing to measure');
  expect(gated.exitCode, gated.all).toBe(0);
  await git('checkout', '--quiet', 'main');
});

// innodb_log_buffer_size is read-only on MariaDB 10.11 (SYSTEM_VARIABLES: READ_ONLY = YES): only a restart applies
// it. A larger log buffer costs nothing while sysbench runs, so this branch is also the null change: judged at 15
// points, it passes (or is inconclusive and passes) naming both configurations. Until 2026-12-04 a second branch
// (QUERY_DDL added to the settings, toggled) showed the null change on its own, for 37 s of `./auditbench test`.
test('a read-only option is measured with restarts, saying so; costing nothing, it passes naming both configurations', async () => {
  await git('checkout', '--quiet', '-b', 'log-buffer');
  await repo.commit(
    { 'ops/audit.cnf': optionFile('QUERY_DDL', 'innodb_log_buffer_size = 32M\n') },
    'A larger InnoDB log buffer',
  );
  const gated = await gate([], 15, nullChange);
  expect(gated.all).toMatch(/run ops-cnf: .*innodb_log_buffer_size is not SERVER_AUDIT's.*expects restarts/);
  expect(gated.all, outcome(gated)).toMatch(
    new RegExp(
      `${notFailed}: ops-cnf, base \\(innodb_log_buffer_size=\\(default\\)\\) vs head \\(innodb_log_buffer_size=32M\\): head is \\d+\\.\\d% (slower|faster) than base \\(95% CI [-\\d.]+% to [-\\d.]+%\\),? (below|straddles) the allowed 15 points.*\\[restarts`,
    ),
  );
  expect(gated.all, outcome(gated)).toContain(
    'auditbench gate: ops-cnf measured with restarts: innodb_log_buffer_size is read-only (READ_ONLY = YES): a restart before each arm',
  );
  expect(gated.exitCode, outcome(gated)).toBe(0);
  await git('checkout', '--quiet', 'main');
}, 450_000);

// Logging every query cost 7.2% [2.1, 11.9] more than CONNECT alone here (2026-12-03): judged at 1 point, so only an
// interval wholly under 1 could pass it; a busy step that leaves it straddling fails too (inconclusive fails).
test('a branch that logs every query fails the gate with the paired base-vs-head difference', async () => {
  await git('checkout', '--quiet', '-b', 'all-events');
  await repo.commit({ 'auditbench.config.ts': config('CONNECT,QUERY') }, 'Audit every query');
  const gated = await gate([], 1);
  expect(gated.all, outcome(gated)).toMatch(
    /FAILED: events, base \(server_audit_events='CONNECT'\) vs head \(server_audit_events='CONNECT,QUERY'\): head is \d+\.\d% slower than base \(95% CI [-\d.]+% to [-\d.]+%\),? (above|straddles) the allowed 1 points.*\[toggle/,
  );
  expect(gated.exitCode, outcome(gated)).toBe(1);
  await git('checkout', '--quiet', 'main');
}, 450_000);
