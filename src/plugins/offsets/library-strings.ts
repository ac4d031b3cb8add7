import type { Buffer } from 'node:buffer';

/** The runs of at least `min` printable ASCII characters in a binary, as strings(1) lists them (pure). */
export function printableStrings(bytes: Buffer, min = 4): string[] {
  const found: string[] = [];
  let start = -1;
  for (let i = 0; i <= bytes.length; i++) {
    const byte = i < bytes.length ? bytes[i] : 0;
    const printable = byte !== undefined && byte >= 0x20 && byte < 0x7f;
    if (printable && start < 0) start = i;
    if (!printable && start >= 0) {
      if (i - start >= min) found.push(bytes.toString('latin1', start, i));
      start = -1;
    }
  }
  return found;
}
