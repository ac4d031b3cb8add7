import { expect, test } from 'vitest';
import {
  failsGate,
  gateMark,
  judgeBaseHead,
  nameConfigurations,
  silentVerdict,
  verdictLine,
} from './verdict.ts';

const names = 'audit, base (events=CONNECT) vs head (events=QUERY)';

test.for([
  [{ estimatePct: 12, ci95: [9, 15] }, 'fail'],
  [{ estimatePct: 0.3, ci95: [-1.5, 2.1] }, 'pass'],
  [{ estimatePct: 4, ci95: [2, 6] }, 'inconclusive'],
  [{ estimatePct: 4, ci95: null }, 'inconclusive'],
] as const)('%o against 5 points is %s', ([estimate, verdict]) => {
  const judged = judgeBaseHead(
    { estimatePct: estimate.estimatePct, ci95: estimate.ci95 ? [...estimate.ci95] : null },
    5,
    names,
  );
  expect(judged.verdict).toBe(verdict);
  expect(judged.reason).toContain(names);
});

test('the reason carries the difference and its interval', () => {
  expect(judgeBaseHead({ estimatePct: 12, ci95: [9, 15] }, 5, names).reason).toBe(
    `${names}: head is 12.0% slower than base (95% CI 9.0% to 15.0%), above the allowed 5 points`,
  );
});

test('a head that gained throughput reads faster, its interval unchanged', () => {
  expect(judgeBaseHead({ estimatePct: -4.7, ci95: [-8.1, -1.2] }, 5, names).reason).toBe(
    `${names}: head is 4.7% faster than base (95% CI -8.1% to -1.2%), below the allowed 5 points`,
  );
  expect(judgeBaseHead({ estimatePct: -0.3, ci95: null }, 5, names).reason).toContain(
    'head 0.3% faster from a single pair',
  );
  expect(judgeBaseHead({ estimatePct: -0.04, ci95: [-4.1, 3.9] }, 5, names).reason).toContain(
    'head is 0.0% slower than base',
  );
});

test("inconclusive follows the configuration's inconclusive; fail always fails, pass never", () => {
  const straddles = judgeBaseHead({ estimatePct: 4, ci95: [2, 6] }, 5, names);
  expect([failsGate(straddles, 'fail'), failsGate(straddles, 'pass')]).toEqual([true, false]);
  expect(failsGate(judgeBaseHead({ estimatePct: 12, ci95: [9, 15] }, 5, names), 'pass')).toBe(true);
});

test('the two configurations are named by what differs', () => {
  expect(nameConfigurations('audit', ["server_audit_events: 'CONNECT' → 'CONNECT,QUERY'"])).toBe(
    "audit, base (server_audit_events='CONNECT') vs head (server_audit_events='CONNECT,QUERY')",
  );
});

test("the closing line adds the run's own half-width where the verdict carries τ, and only there", () => {
  const verdict = judgeBaseHead({ estimatePct: 0.4, ci95: [-1.2, 2.0] }, 5, 'r1, base (a=1) vs head (a=2)');
  const withTau = { ...verdict, design: 'toggle', pairs: 24, withinRunCi95: [-0.5, 1.3] as [number, number] };
  expect(verdictLine('passed', withTau)).toBe(
    'auditbench gate: passed: r1, base (a=1) vs head (a=2): head is 0.4% slower than base (95% CI -1.2% to 2.0%), below the allowed 5 points [toggle, 24 pairs; within this run ±0.90 pp]',
  );
  expect(verdictLine('passed', { ...withTau, withinRunCi95: null })).toMatch(/\[toggle, 24 pairs\]$/);
});

test('where the server chose the design, a second line says which and why, naming the run', () => {
  const judged = judgeBaseHead({ estimatePct: 7, ci95: [4, 10] }, 1, 'ops-cnf, base (e=A) vs head (e=B)');
  const why =
    'server_audit_events is dynamic and global (READ_ONLY = NO, VARIABLE_SCOPE = GLOBAL): one toggled run';
  const lines = verdictLine('FAILED', {
    ...judged,
    runId: 'ops-cnf',
    design: 'toggle',
    designWhy: why,
    pairs: 12,
  });
  expect(lines.split('\n')).toEqual([
    expect.stringMatching(/^auditbench gate: FAILED: ops-cnf, .*\[toggle, 12 pairs\]$/),
    `auditbench gate: ops-cnf measured toggled: ${why}`,
  ]);
  expect(
    verdictLine('passed', { ...judged, runId: 'r', design: 'restarts', designWhy: 'x', pairs: 6 }),
  ).toMatch(/\nauditbench gate: r measured with restarts: x$/);
});

// Issue 53: a branch widening server_audit_events beside a log path that does not exist passed at 0.0% slower.
const unwritable = {
  cause: 'log-unwritable' as const,
  detail:
    "SERVER_AUDIT could not write its log /var/log/mysql/audit.log (Server_audit_last_error: Could not create file '/var/log/mysql/audit.log'.): make the folder of /var/log/mysql/audit.log exist and writable by the server's user, or set server_audit_file_path to a file it can write",
  advice: 'measured an idle plugin: …',
};

test('neither arm logged: the verdict says why it cannot judge, whatever the interval', () => {
  const v = silentVerdict({ estimatePct: 0.01, ci95: [-1.2, 1.3] }, names, unwritable, true);
  expect(v.verdict).toBe('idle');
  expect(v.reason).toBe(
    `${names}: can't judge: neither base nor head logged any of the traffic's events (head 0.0% slower prices plugins that wrote nothing); ${unwritable.detail}`,
  );
});

test.for([
  ['an unwritable log fails', true, true, 'FAILED'],
  [
    "an idle comparison its run accepts (idle: 'pass') does not fail",
    false,
    false,
    "can't judge (passes: idle: 'pass')",
  ],
] as const)('%s', ([, fails, expected, mark]) => {
  const v = silentVerdict({ estimatePct: 0, ci95: [-1, 1] }, names, unwritable, fails);
  expect(failsGate(v, 'pass')).toBe(expected);
  expect(failsGate(v, 'fail')).toBe(expected);
  expect(gateMark(v, 'pass')).toBe(mark);
});

test.for([
  [{ estimatePct: 0.3, ci95: [-1.5, 2.1] }, 'pass', 'passed'],
  [{ estimatePct: 4, ci95: [2, 6] }, 'pass', 'inconclusive (passes)'],
  [{ estimatePct: 4, ci95: [2, 6] }, 'fail', 'FAILED'],
] as const)('%o under inconclusive: %s is marked %s', ([estimate, inconclusive, mark]) => {
  const v = judgeBaseHead({ estimatePct: estimate.estimatePct, ci95: [...estimate.ci95] }, 5, names);
  expect(gateMark(v, inconclusive)).toBe(mark);
});

test('an idle verdict recorded without its answer fails: never a pass by default', () => {
  expect(failsGate({ verdict: 'idle', changePct: 0, ci95: [-1, 1], reason: 'x' }, 'pass')).toBe(true);
});
