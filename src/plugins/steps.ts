import { SqlError } from '../servers/sql-session.ts';
import type { ConfigEdit, StartedServer } from '../servers/started-server.ts';

/**
 * One step of a plugin procedure. Procedures (install, uninstall, McAfee's my.cnf dance, …) are lists of these,
 * so a new plugin's quirks are data, not suite code.
 */
export type Step =
  | {
      kind: 'sql';
      sql: string /** errnos that are an expected answer, not a failure */;
      allowErrors?: number[];
    }
  | { kind: 'config'; edit: ConfigEdit }
  | { kind: 'restart' }
  /**
   * Options worked out for this server at the moment they are needed (e.g. a supplied library's structure offsets
   * for the running binary), written to my.cnf like a `config` step; `what` names it in outcomes and errors.
   */
  | { kind: 'derive'; what: string; derive: (server: StartedServer) => Promise<ConfigEdit> };

export const sql = (statement: string, allowErrors?: number[]): Step =>
  allowErrors ? { kind: 'sql', sql: statement, allowErrors } : { kind: 'sql', sql: statement };

/** SET GLOBAL for each entry, values written as given (quote strings yourself). */
export const setGlobals = (values: Record<string, string>): Step[] =>
  Object.entries(values).map(([name, value]) => sql(`SET GLOBAL ${name} = ${value}`));

/** What the server answered to one step. */
export interface StepOutcome {
  step: string;
  warnings: { code: number; message: string }[];
  /** An allowed error the server answered with. */
  error?: { errno: number; message: string };
}

function describeStep(step: Step): string {
  if (step.kind === 'sql') return step.sql;
  if (step.kind === 'restart') return 'restart the server';
  if (step.kind === 'derive') return step.what;
  const set = Object.entries(step.edit.set ?? {}).map(([k, v]) => (v === null ? k : `${k}=${v}`));
  const unset = (step.edit.unset ?? []).map((k) => `remove ${k}`);
  return `my.cnf: ${[...set.map((s) => `add ${s}`), ...unset].join(', ')}`;
}

async function runStep(server: StartedServer, step: Step): Promise<StepOutcome> {
  const name = describeStep(step);
  if (step.kind === 'config') {
    await server.editConfig(step.edit);
    return { step: name, warnings: [] };
  }
  if (step.kind === 'restart') {
    await server.restart();
    return { step: name, warnings: [] };
  }
  if (step.kind === 'derive') {
    await server.editConfig(await step.derive(server));
    return { step: name, warnings: [] };
  }
  try {
    const { warnings } = await server.query(step.sql);
    return { step: name, warnings: warnings.map(({ code, message }) => ({ code, message })) };
  } catch (error) {
    if (error instanceof SqlError && step.allowErrors?.includes(error.errno)) {
      return { step: name, warnings: [], error: { errno: error.errno, message: error.message } };
    }
    throw error;
  }
}

/** Runs steps in order; the first unexpected failure stops the procedure and names the step. */
export async function runSteps(
  server: StartedServer,
  steps: Step[],
  procedure: string,
): Promise<StepOutcome[]> {
  const outcomes: StepOutcome[] = [];
  for (const [index, step] of steps.entries()) {
    try {
      outcomes.push(await runStep(server, step));
    } catch (error) {
      let why = error instanceof Error ? error.message : String(error);
      // A refused statement is often explained only in the error log (e.g. a plugin's init failure).
      if (error instanceof SqlError) {
        const tail = await server.errorLogTail(10).catch(() => '');
        if (tail) why += `\nError log tail:\n${tail}`;
      }
      throw new Error(
        `${procedure} failed at step ${index + 1} (${describeStep(step)}) on ${server.info.flavor} ${server.info.version}: ${why}`,
        { cause: error },
      );
    }
  }
  return outcomes;
}
