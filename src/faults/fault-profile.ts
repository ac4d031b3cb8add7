export {
  type EnableAnswer,
  type FaultFacts,
  type FaultName,
  type FaultSupport,
  faultNames,
  type Recovery,
} from '../plugins/fault-support.ts';

import { type FaultFacts, type FaultName, faultNames } from '../plugins/fault-support.ts';

export interface FactMismatch {
  fault: FaultName;
  fact: string;
  expected: unknown;
  observed: unknown;
}

/** Every expected fact the observation contradicts, with both values. */
export function compareFacts(expected: Partial<FaultFacts>, observed: Partial<FaultFacts>): FactMismatch[] {
  const mismatches: FactMismatch[] = [];
  for (const fault of faultNames) {
    const want = expected[fault] as Record<string, unknown> | undefined;
    const got = observed[fault] as Record<string, unknown> | undefined;
    if (!want || !got) continue;
    for (const [fact, value] of Object.entries(want)) {
      if (got[fact] !== value) mismatches.push({ fault, fact, expected: value, observed: got[fact] });
    }
  }
  return mismatches;
}

export const describeMismatch = (m: FactMismatch): string =>
  `${m.fault}: ${m.fact} expected ${JSON.stringify(m.expected)}, observed ${JSON.stringify(m.observed)}`;
