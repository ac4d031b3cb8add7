import { Buffer } from 'node:buffer';
import { expect, test } from 'vitest';
import { mcafeeOffsetLayout } from '../../profiles/mcafee-offsets.ts';
import { printableStrings } from './library-strings.ts';

test('printable runs of 4 or more, split at any other byte', () => {
  const bytes = Buffer.from('\x7fELF\x02\x01abc\x00audit-version\x001.2.5-6aa235a\x00\xff', 'latin1');
  expect(printableStrings(bytes)).toEqual(['audit-version', '1.2.5-6aa235a']);
});

test.for([
  [['1.2.5-6aa235a'], true],
  [['1.2.4-1234567'], false],
  [['v1.2.5-6aa235a and more'], false],
  [['1.2.5'], false],
] as const)('the v1.2.5 layout knows a library by its version string: %j → %s', ([strings, known]) => {
  expect(mcafeeOffsetLayout.library.knows([...strings])).toBe(known);
});
