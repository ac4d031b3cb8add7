import { expect, test } from 'vitest';
import { estimateText, fixed } from './format-numbers.ts';

test.for([
  [null, 1, '–'],
  [undefined, 1, '–'],
  [Math.PI, 1, '3.1'],
  [3357.4, 0, '3357'],
] as const)('fixed(%s, %s) is %s', ([value, digits, text]) => {
  expect(fixed(value, digits)).toBe(text);
});

test('an estimate reads with its interval, the unit after the estimate', () => {
  expect(estimateText(9.23, [7.5, 10.71], '%')).toBe('9.2% [7.5, 10.7]');
  expect(estimateText(9.23, [7.5, 10.71])).toBe('9.2 [7.5, 10.7]');
  expect(estimateText(9.23, null)).toBe('9.2');
  expect(estimateText(null, [1, 2])).toBe('–');
});
