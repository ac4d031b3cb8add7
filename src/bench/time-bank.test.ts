import { expect, test } from 'vitest';
import { afterGate, bankLine, budgetFrom, MAX_BUDGET_FACTOR } from './time-bank.ts';

const precise = { budgetS: 75, targetHalfWidthPct: 1 };
const verdictOnly = { budgetS: 150, targetHalfWidthPct: null };

test('the first gate gets the workload budget', () => {
  expect(budgetFrom(0, precise)).toBe(75);
});

test('a gate that stopped early passes its unused seconds on', () => {
  const bank = afterGate(0, precise, 52);
  expect(bank).toBe(23);
  expect(budgetFrom(bank, precise)).toBe(98);
});

test('the bank keeps whole seconds', () => {
  // Stopped after 69.6 s of its 75: 5 s go on, and the next budget is a whole 80 s.
  const bank = afterGate(0, precise, 69.6);
  expect(bank).toBe(5);
  expect(budgetFrom(bank, precise)).toBe(80);
});

test('a gate that used the bank leaves what it did not spend of it', () => {
  // Given 98 s (75 + 23), used 90: 8 s stay for the next.
  expect(afterGate(23, precise, 90)).toBe(8);
  // Used all 98: nothing stays.
  expect(afterGate(23, precise, 98)).toBe(0);
});

test('a gate that ran a little over empties the bank but does not borrow from later gates', () => {
  expect(afterGate(0, precise, 78)).toBe(0);
  expect(afterGate(10, precise, 90)).toBe(0);
});

test(`a gate spends at most ${MAX_BUDGET_FACTOR}x the workload budget, the rest stays banked`, () => {
  const rich = 200;
  expect(budgetFrom(rich, precise)).toBe(150);
  // It used its 150: 200 + 75 - 150 stay for the gates after it.
  expect(afterGate(rich, precise, 150)).toBe(125);
});

test('across four gates the total never passes four budgets', () => {
  let bank = 0;
  let total = 0;
  // Stops early, early, then two noisy gates that spend whatever they get.
  for (const stopsAfter of [52, 60, Number.POSITIVE_INFINITY, Number.POSITIVE_INFINITY]) {
    const budget = budgetFrom(bank, precise);
    const used = Math.min(budget, stopsAfter);
    total += used;
    bank = afterGate(bank, precise, used);
  }
  expect(total).toBe(4 * 75);
  expect(bank).toBe(0);
});

test('workloads that stop at a verdict keep their budget and bank nothing', () => {
  expect(afterGate(0, verdictOnly, 40)).toBe(0);
  expect(budgetFrom(100, verdictOnly)).toBe(150);
});

test('refuses a negative or unknown time used', () => {
  expect(() => afterGate(0, precise, -1)).toThrow(/usedS must be at least 0 seconds, got -1/);
  expect(() => afterGate(0, precise, Number.NaN)).toThrow(/usedS/);
});

test('says where a raised budget comes from, and nothing when it was not raised', () => {
  expect(bankLine(98, precise)).toBe(
    "budget 98 s: the workload's 75 s and 23 s the earlier gates on this server did not use",
  );
  expect(bankLine(75, precise)).toBeNull();
});
