// The studies' own options (bench:precision, bench:coverage and the traces), all in one variable:
// AUDITBENCH_STUDY='runs=10 conditions=quiet,load'. Set at all (even empty), it adds the precision project to
// Vitest (vitest.config.ts). A bad option stops the study before any server starts, naming it.
import { type Field, read } from '../../src/config/env.ts';

/** The options AUDITBENCH_STUDY gives, each parsed with src/config/env.ts's fields so errors read alike. */
export function studyOptions(
  env: Record<string, string | undefined>,
  known: readonly string[],
): <T>(name: string, field: Field<T>, fallback: T) => T {
  const given: Record<string, string> = {};
  for (const word of (env.AUDITBENCH_STUDY ?? '').split(/\s+/).filter(Boolean)) {
    const at = word.indexOf('=');
    const name = at === -1 ? word : word.slice(0, at);
    if (at === -1 || !known.includes(name)) {
      throw new Error(
        `AUDITBENCH_STUDY has '${word}': give name=value words, the names being ${known.join(', ')}; got '${env.AUDITBENCH_STUDY}'`,
      );
    }
    given[name] = word.slice(at + 1);
  }
  return (name, field, fallback) => {
    try {
      return read(given, name, field, fallback);
    } catch (error) {
      throw new Error(`AUDITBENCH_STUDY ${error instanceof Error ? error.message : String(error)}`);
    }
  };
}
