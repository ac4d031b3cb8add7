import { expect, test } from 'vitest';
import {
  interferenceFailure,
  interferencePolicyField,
  parseInterferencePolicy,
} from './interference-policy.ts';

test.for([
  [undefined, 'warn'],
  ['warn', 'warn'],
  ['fail', 'fail'],
  [' retry ', 'retry'],
] as const)('AUDITBENCH_INTERFERENCE=%s means %s', ([raw, policy]) => {
  expect(parseInterferencePolicy(raw)).toBe(policy);
});

test('a bad value names the variable, the value and the choices', () => {
  expect(() => parseInterferencePolicy('ignore')).toThrow(
    /^AUDITBENCH_INTERFERENCE must be one of warn, fail, retry .*; got 'ignore'$/,
  );
  expect(interferencePolicyField.schema.safeParse('fail').success).toBe(true);
});

test('only fail turns a flagged measurement into a failure', () => {
  const flagged = {
    flagged: true,
    reason: 'measured under interference: other processes used 80% of a core',
  };
  expect(interferenceFailure(flagged, 'warn')).toBeNull();
  expect(interferenceFailure(flagged, 'retry')).toBeNull();
  expect(interferenceFailure({ ...flagged, flagged: false }, 'fail')).toBeNull();
  expect(interferenceFailure(undefined, 'fail')).toBeNull();
  expect(interferenceFailure(flagged, 'fail')).toMatch(
    /^measured under interference: .*AUDITBENCH_INTERFERENCE=fail/,
  );
});
