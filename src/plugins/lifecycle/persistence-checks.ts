import { isDeepStrictEqual } from 'node:util';
import { readLogText } from '../log-reader.ts';
import { readVariables, variableDiff } from '../server-state.ts';
import { runSteps, type StepOutcome } from '../steps.ts';
import {
  BUILT_IN,
  check,
  type LifecycleContext,
  type LifecycleStep,
  loggedStatement,
  notApplicable,
  presence,
  sentAs,
  toJson,
  unreadableReason,
} from './context.ts';
import { countDuring } from './counters.ts';

export const restart: LifecycleStep = {
  id: 'restart',
  title: 'after restart: still installed, logging off, variables at defaults',
  async run(ctx) {
    const { loggingVariable, variablesLike, name } = ctx.profile;
    await runSteps(ctx.server, ctx.profile.enable, `Enabling ${name}`);
    const before = await readVariables(ctx.server, variablesLike);
    await ctx.server.restart();
    const after = await readVariables(ctx.server, variablesLike);
    const status = await presence(ctx.server, ctx.profile);
    const installed = status === 'ACTIVE' || status === BUILT_IN;
    const observed = {
      installed,
      // Without a switch of its own, a plugin logs exactly while it is loaded.
      loggingOn:
        loggingVariable === null
          ? installed
          : (ctx.profile.loggingOnValues ?? ['ON']).includes(after[loggingVariable] ?? ''),
      variablesReset: Object.entries(ctx.defaults).every(([k, v]) => after[k] === v),
    };
    return check(
      'restart',
      { ...ctx.expected.afterRestart },
      observed,
      toJson({
        account: ctx.server.connection.user,
        statements: [
          ...ctx.profile.enable.map((step) => (step.kind === 'sql' ? step.sql : step.kind)),
          'restart',
        ],
        status,
        changed: variableDiff(ctx.defaults, before, after),
      }),
    );
  },
};

const afterUninstall = (ctx: LifecycleContext) => `SELECT '${ctx.marker}-gone' AS auditbench_marker`;

/**
 * Whether a statement the checks' account runs now still reaches the plugin's log (or its counters); 'not
 * applicable' when this configuration's log cannot show it (unreadable, or the marker past the statement limit).
 */
async function stillLogs(ctx: LifecycleContext): Promise<boolean | 'not applicable'> {
  const { log } = ctx.profile;
  if (log.file === null) {
    const { counted } = await countDuring(ctx.server, log, () => loggedStatement(ctx, 'gone'));
    return (counted ?? 0) > 0;
  }
  const needle = await loggedStatement(ctx, 'gone');
  if (unreadableReason(ctx, afterUninstall(ctx), needle) !== null) return 'not applicable';
  return (await readLogText(ctx.server, ctx.profile)).includes(needle);
}

export const uninstall: LifecycleStep = {
  id: 'uninstall',
  title: 'uninstalls, and the server restarts cleanly',
  async run(ctx) {
    const { name, soname } = ctx.profile;
    if (soname === null)
      return notApplicable('uninstall', 'a server built-in: there is nothing to uninstall');
    // Logging on while uninstalling shows whether a "busy" plugin keeps auditing until shutdown.
    await runSteps(ctx.server, ctx.profile.enable, `Enabling ${name}`);
    let answers: StepOutcome[] = [];
    let crash: string | null = null;
    try {
      answers = await runSteps(ctx.server, ctx.profile.uninstall, `Uninstalling ${name}`);
    } catch (error) {
      crash = await crashFinding(ctx, error);
    }
    const warningCodes = [...new Set(answers.flatMap((a) => a.warnings.map((w) => w.code)))].sort(
      (a, b) => a - b,
    );
    const statusAfter = await presence(ctx.server, ctx.profile);
    const logsAfter = await stillLogs(ctx);
    let restartError: string | null = null;
    let statusAfterRestart: string | null = null;
    try {
      await ctx.server.restart();
      statusAfterRestart = await presence(ctx.server, ctx.profile);
    } catch (error) {
      restartError = error instanceof Error ? error.message : String(error);
    }
    const observed = {
      warningCodes,
      needsRestart: statusAfter !== null,
      stillLogs: logsAfter,
      restartsCleanly: restartError === null,
      goneAfterRestart: restartError === null && statusAfterRestart === null,
      ...(crash === null ? {} : { crashed: true }),
    };
    const { crashes, deferredBy, ...expected } = ctx.expected.uninstall;
    const stillLogsWhy = unreadableReason(ctx, afterUninstall(ctx), `${ctx.marker}-gone`);
    const wanted = {
      ...expected,
      ...(stillLogsWhy === null ? {} : { stillLogs: 'not applicable' }),
      restartsCleanly: true,
      // A procedure that crashed the server did not finish, so the plugin is expected to be still there.
      goneAfterRestart: !crashes,
      ...(crashes ? { crashed: true } : {}),
    };
    const failure = deferralFailure(ctx, wanted, observed, statusAfter);
    return check(
      'uninstall',
      wanted,
      observed,
      toJson({
        ...sentAs(ctx.checks, afterUninstall(ctx)),
        ...(stillLogsWhy === null ? {} : { stillLogsWhy }),
        ...(deferredBy === undefined ? {} : { deferredBy }),
        ...(failure === null ? {} : { failure }),
        answers,
        statusAfter,
        statusAfterRestart,
        restartError,
        crash,
      }),
    );
  },
};

/**
 * The one line for a check whose only mismatch is whether the plugin outlived UNINSTALL: it names the option in force
 * that decided the expectation (`deferredBy`), or says that none in force is known to defer it. Null otherwise: the
 * expectation and the observation are then the record's to show.
 */
function deferralFailure(
  ctx: LifecycleContext,
  wanted: Record<string, unknown>,
  observed: Record<string, unknown>,
  statusAfter: string | null,
): string | null {
  const { name } = ctx.profile;
  const expected = ctx.expected.uninstall;
  if (wanted.needsRestart === observed.needsRestart) return null;
  if (!isDeepStrictEqual({ ...wanted, needsRestart: null }, { ...observed, needsRestart: null })) return null;
  const why = expected.deferredBy;
  if (expected.needsRestart) {
    return `${name} was gone from information_schema.PLUGINS right after UNINSTALL, where it was expected to stay until the restart: ${why ?? "the profile's own answer"}`;
  }
  const known = why === undefined ? 'no option in force is known to defer it' : why;
  return `${name} was still in information_schema.PLUGINS (${statusAfter}) right after UNINSTALL and gone only after the restart, where it was expected gone at once: ${known}; an option this run sets that the profile does not know of, or a connection that used the plugin and stayed open, defers it`;
}

/**
 * A server that died during the procedure is a finding, not the end of the run: its error-log tail is kept and the
 * server brought back, so the checks after it and the next suite still run. A live server means the step failed.
 */
async function crashFinding(ctx: LifecycleContext, error: unknown): Promise<string> {
  const alive = await ctx.server.query('SELECT 1').then(
    () => true,
    () => false,
  );
  if (alive) throw error;
  const tail = await ctx.server.errorLogTail(30).catch(() => '(error log unreadable)');
  await ctx.server.restart();
  const why = error instanceof Error ? error.message.split('\n')[0] : String(error);
  return `the server died: ${why}\nError log tail:\n${tail}`;
}
