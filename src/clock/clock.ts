/**
 * The clock a measurement reads and waits on: when a block started, how much of the budget is spent, when the next
 * switch is due. The real one by default; a unit test hands in one it moves itself, as it hands in a quiet probe.
 */
export interface Clock {
  /** Milliseconds since the epoch, as Date.now() counts them. */
  nowMs(): number;
  /** Resolves after `ms` milliseconds; at once for 0 or less. */
  sleepMs(ms: number): Promise<void>;
}

export const realClock: Clock = {
  nowMs: () => Date.now(),
  sleepMs: (ms) => new Promise((resolve) => setTimeout(resolve, Math.max(0, ms))),
};
