import { expect, test } from 'vitest';
import { editDistance, nearest } from './near-miss.ts';

test.for([
  ['bench', 'bench', 0],
  ['bnech', 'bench', 1],
  ['lsit', 'list', 1],
  ['matirx', 'matrix', 1],
  ['gat', 'gate', 1],
  ['frobnicate', 'bench', 8],
] as const)('%s → %s: %i edits', ([a, b, edits]) => {
  expect(editDistance(a, b)).toBe(edits);
});

test('the nearest known word within reach, or none', () => {
  const commands = ['bench', 'test', 'gate', 'matrix', 'list'];
  expect(nearest('bnech', commands)).toBe('bench');
  expect(nearest('tset', commands)).toBe('test');
  expect(nearest('TEST', commands)).toBe('test');
  // Short words get one edit: 'gt' is not 'gate'.
  expect(nearest('gt', commands)).toBeNull();
  expect(nearest('frobnicate', commands)).toBeNull();
});
