import { expect, test } from 'vitest';
import { countFailed } from './counted-cost.ts';

// bench's counted test when the count throws (its server under callgrind, the threads it attributes): the run's
// wall-clock verdict stands, and the count says why in one line, never a stack.
const threw = new Error(
  "The counted warm-up saw sysbench served by thread 0, which the count leaves out as the server's own or the harness's\n    at checkPolled (src/counted/counted-ab.ts:361:11)",
);

test('a count that throws is a skipped counted test with its first line', () => {
  expect(countFailed('auto', 'events', threw)).toEqual({
    skip: "not counted: The counted warm-up saw sysbench served by thread 0, which the count leaves out as the server's own or the harness's",
  });
});

test('under AUDITBENCH_COUNTED=on, which asks for the count, the same line fails the run', () => {
  const outcome = countFailed('on', 'events', threw);
  expect(outcome.failure).toBe(
    "events: AUDITBENCH_COUNTED=on, but the count failed: The counted warm-up saw sysbench served by thread 0, which the count leaves out as the server's own or the harness's",
  );
  expect(outcome.error).toBeUndefined();
});

test('something thrown that is not an Error, or an empty message, still reads as one line', () => {
  expect(countFailed('auto', 'events', 'valgrind: killed')).toEqual({
    skip: 'not counted: valgrind: killed',
  });
  expect(countFailed('auto', 'events', new TypeError('\n'))).toEqual({ skip: 'not counted: TypeError' });
});
