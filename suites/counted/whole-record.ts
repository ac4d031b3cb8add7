import { expect } from 'vitest';
import type { CountedRecord } from '../../src/results/counted-record.ts';

/** No arm lost its threads' syscalls, and every arm's audit lines carry ids of one width (src/counted/id-widths.ts). */
export function expectWhole(record: CountedRecord, label: string): void {
  for (const arm of record.arms)
    expect(arm.lostThreads, `${label}: an arm lost its threads' syscalls`).toBe(0);
  for (const [what, ids] of [
    ['query', record.queryIds],
    ['connection', record.connectionIds],
  ] as const) {
    expect(ids, `${label}: the ${what} ids around the arms were not read`).toBeTruthy();
    if (ids)
      expect(String(ids.last).length, `${label}: ${what} ids ${JSON.stringify(ids)}`).toBe(
        String(ids.first).length,
      );
  }
}
