import type { InvocationSnapshot } from '../invocation-snapshot.ts';

/** One end-of-invocation output of the auditbench reporter: a file, the history, a block of the terminal, the gate. */
export interface ReportWriter {
  /** What it does, for its one failure line: `auditbench: could not <what>: <message>`. */
  what: string;
  write(snapshot: InvocationSnapshot): Promise<void> | void;
}
