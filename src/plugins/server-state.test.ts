import { expect, test } from 'vitest';
import { variableDiff } from './server-state.ts';

test('variableDiff lists what was changed before a restart and what stayed changed after', () => {
  const defaults = { logging: 'OFF', rotations: '9', path: 'server_audit.log' };
  const before = { logging: 'ON', rotations: '3', path: 'server_audit.log' };
  const after = { logging: 'OFF', rotations: '9', path: 'server_audit.log', extra: 'x' };
  expect(variableDiff(defaults, before, after)).toEqual([
    { name: 'extra', default: null, before: null, after: 'x' },
    { name: 'logging', default: 'OFF', before: 'ON', after: 'OFF' },
    { name: 'rotations', default: '9', before: '3', after: '9' },
  ]);
});
