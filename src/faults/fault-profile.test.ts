import { describe, expect, test } from 'vitest';
import { compareFacts, describeMismatch, type FaultFacts } from './fault-profile.ts';

const profiled: Partial<FaultFacts> = {
  'disk-full': { serverUp: true, recordsLost: true, recovery: 'by itself' },
  moved: { writesMovedFile: true, recovery: 'after reopen' },
};

describe('compareFacts', () => {
  test('a plugin that behaves as profiled has no mismatch', () => {
    expect(
      compareFacts(profiled, {
        ...profiled,
        frozen: { serverUp: true, auditedStatementsWait: true, recovery: 'by itself' },
      }),
    ).toEqual([]);
  });

  test('a plugin whose behaviour differs from its profile fails with both values', () => {
    const observed: Partial<FaultFacts> = {
      'disk-full': { serverUp: true, recordsLost: true, recovery: 'after restart' },
      moved: { writesMovedFile: false, recovery: 'after reopen' },
    };
    const mismatches = compareFacts(profiled, observed).map(describeMismatch);
    expect(mismatches).toEqual([
      'disk-full: recovery expected "by itself", observed "after restart"',
      'moved: writesMovedFile expected true, observed false',
    ]);
  });

  test.for([
    ['a fault the profile leaves out is recorded, not checked', {}, profiled],
    ['a fault that did not run is not a mismatch', profiled, {}],
  ] as const)('%s', ([, expected, observed]) => {
    expect(compareFacts(expected, observed)).toEqual([]);
  });
});
