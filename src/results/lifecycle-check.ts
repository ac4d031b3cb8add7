/** A JSON value, so a check's expectations and observations survive task.meta and results.json unchanged. */
export type Json = string | number | boolean | null | Json[] | { [key: string]: Json };

/** One lifecycle check: what the profile expected, what the server did, and whether they match. */
export interface LifecycleCheck {
  check: string;
  expected: Json;
  observed: Json;
  ok: boolean;
  /** Evidence a DBA would want to see: values before/after, server answers, file lists. */
  details?: Json;
}
