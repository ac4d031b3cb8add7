import { expect, test } from 'vitest';
import { interferenceFailure } from './interference-policy.ts';

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
    /^measured under interference: .*interference: 'fail' \(auditbench.config.ts\) rejects/,
  );
});
