import { expect, test } from 'vitest';
import { failsGate, judgeBaseHead, nameConfigurations } from './verdict.ts';

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

test('inconclusive follows AUDITBENCH_INCONCLUSIVE; fail always fails, pass never', () => {
  const straddles = judgeBaseHead({ estimatePct: 4, ci95: [2, 6] }, 5, names);
  expect([failsGate(straddles, 'fail'), failsGate(straddles, 'pass')]).toEqual([true, false]);
  expect(failsGate(judgeBaseHead({ estimatePct: 12, ci95: [9, 15] }, 5, names), 'pass')).toBe(true);
});

test('the two configurations are named by what differs', () => {
  expect(nameConfigurations('audit', ["server_audit_events: 'CONNECT' → 'CONNECT,QUERY'"])).toBe(
    "audit, base (server_audit_events='CONNECT') vs head (server_audit_events='CONNECT,QUERY')",
  );
});
