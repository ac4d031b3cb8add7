import { expect, test } from 'vitest';
import { procAddress } from './listening.ts';

test.for([
  ['0100007F:0CEA', '127.0.0.1:3306'],
  ['00000000:1F90', '0.0.0.0:8080'],
  ['00000000000000000000000000000000:0CEA', '[0000:0000:0000:0000:0000:0000:0000:0000]:3306'],
  ['00000000000000000000000001000000:0050', '[0000:0000:0000:0000:0000:0000:0000:0001]:80'],
])('%s is %s', ([hex, address]) => {
  expect(procAddress(hex as string)).toBe(address);
});
