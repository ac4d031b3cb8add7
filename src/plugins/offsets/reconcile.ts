import type { DerivedOffset, OffsetLayout } from './layout.ts';

/** The fields an accessor's code gives: the named memory operand of each function found. */
export function accessorOffsets(
  layout: OffsetLayout,
  disassembly: Map<string, number[]>,
): Map<string, number> {
  const offsets = new Map<string, number>();
  for (const { fn, operand, field } of layout.accessors) {
    const value = disassembly.get(fn)?.[operand - 1];
    if (value !== undefined) offsets.set(field, value);
  }
  return offsets;
}

type Shift = { delta: number; origin: 'shifted' | 'one-sided' | 'source' } | { ambiguous: string };

/** How far a field moved: the shift of the nearest anchors of its structure below and above it, when they agree. */
function shiftFor(field: string, source: Map<string, number>, binary: Map<string, number>): Shift {
  const type = field.split('.')[0];
  const at = source.get(field) ?? 0;
  let below: { at: number; delta: number } | null = null;
  let above: { at: number; delta: number } | null = null;
  for (const [name, value] of binary) {
    const sourceValue = source.get(name);
    if (name.split('.')[0] !== type || sourceValue === undefined) continue;
    const delta = value - sourceValue;
    if (sourceValue <= at && (below === null || sourceValue > below.at)) below = { at: sourceValue, delta };
    if (sourceValue >= at && (above === null || sourceValue < above.at)) above = { at: sourceValue, delta };
  }
  if (below && above) {
    return below.delta === above.delta
      ? { delta: below.delta, origin: 'shifted' }
      : { ambiguous: `${below.delta} below, ${above.delta} above` };
  }
  const one = below ?? above;
  return one ? { delta: one.delta, origin: 'one-sided' } : { delta: 0, origin: 'source' };
}

export type Reconciled = { ok: true; offsets: DerivedOffset[] } | { ok: false; why: string };

/**
 * Each field of the layout for the binary: read off an accessor where there is one ("binary"), else its source
 * offset moved by the shift of the anchors around it in the same structure ("shifted"; "one-sided" with an anchor
 * on one side only; "source" with none). Fails, naming the field, where the source lacks it or the anchors disagree.
 */
export function reconcileOffsets(
  layout: OffsetLayout,
  source: Map<string, number>,
  binary: Map<string, number>,
): Reconciled {
  const offsets: DerivedOffset[] = [];
  for (const field of layout.fields) {
    if (field === null) {
      offsets.push({ field, value: 0, sourceValue: null, origin: 'unused' });
      continue;
    }
    const sourceValue = source.get(field);
    if (sourceValue === undefined) {
      return {
        ok: false,
        why: `${field} is not in the source tree's layout (gdb could not read it from the probe)`,
      };
    }
    const read = binary.get(field);
    if (read !== undefined) {
      offsets.push({ field, value: read, sourceValue, origin: 'binary' });
      continue;
    }
    const shift = shiftFor(field, source, binary);
    if ('ambiguous' in shift) {
      return { ok: false, why: `${field} lies between anchors that moved differently (${shift.ambiguous})` };
    }
    offsets.push({ field, value: sourceValue + shift.delta, sourceValue, origin: shift.origin });
  }
  return { ok: true, offsets };
}

/** The option's value: the numbers in layout order. */
export const offsetsValue = (offsets: DerivedOffset[]): string => offsets.map((o) => o.value).join(',');

/** One line per number: the field, its source and derived offsets, and where the number came from. */
export function describeOffsets(offsets: DerivedOffset[]): string[] {
  return offsets.map(({ field, value, sourceValue, origin }, index) => {
    const source = sourceValue === null ? '' : `source ${String(sourceValue).padStart(6)}`;
    const name = field ?? '(unused on MariaDB)';
    return `${String(index + 1).padStart(2)} ${name.padEnd(45)} ${source.padEnd(13)}  ${String(value).padStart(6)}  (${origin})`;
  });
}
