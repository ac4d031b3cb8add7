/** Number formatting every report shares: a dash for a missing value, fixed decimals otherwise. */
export const fixed = (value: number | null | undefined, digits = 1): string =>
  value === null || value === undefined ? '–' : value.toFixed(digits);

/** `9.2 [7.5, 10.7]` (with `unit` after the estimate, e.g. '%'), or a dash when nothing was measured. */
export function estimateText(
  estimate: number | null,
  ci95: readonly [number, number] | null,
  unit = '',
): string {
  if (estimate === null) return '–';
  const ci = ci95 ? ` [${fixed(ci95[0])}, ${fixed(ci95[1])}]` : '';
  return `${fixed(estimate)}${unit}${ci}`;
}
