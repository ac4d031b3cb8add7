import { chmod, mkdir } from 'node:fs/promises';
import path from 'node:path';
import { pluginState } from '../completeness/crash-phase.ts';
import { runSteps, setGlobals } from '../plugins/steps.ts';
import type { FaultRecord } from '../results/fault-record.ts';
import { clockOf, counters, type FaultContext } from './context.ts';
import type { EnableAnswer, FaultFacts } from './fault-profile.ts';
import { newLines } from './probe.ts';

interface Answer {
  answer: EnableAnswer;
  said: string;
}

/** Logging off, the log pointed into `dir`, logging on: what the server answered, step by step, up to the first refusal. */
async function enableInto(ctx: FaultContext, dir: string): Promise<Answer> {
  const { server, profile, support } = ctx;
  await runSteps(server, profile.disable, `Disabling ${profile.name}`);
  const notes: string[] = [];
  let answer: EnableAnswer = 'silent';
  for (const step of [...support.logIn(dir), ...(support.enable ?? profile.enable)]) {
    try {
      const [outcome] = await runSteps(server, [step], `Logging ${profile.name} into ${dir}`);
      for (const w of outcome?.warnings ?? []) notes.push(`warning ${w.code}: ${w.message}`);
      if ((outcome?.warnings.length ?? 0) > 0) answer = 'warning';
    } catch (error) {
      const message = serverWords(
        String(error instanceof Error ? error.message : error).split('\n')[0] ?? '',
      );
      answer = step.kind === 'restart' ? 'server did not start' : 'error';
      notes.push(message);
      break;
    }
  }
  return { answer, said: notes.join('; ') };
}

/** Brings the server back (when the bad path kept it from starting) and logging back onto the fault filesystem. */
async function restore(ctx: FaultContext, answer: EnableAnswer): Promise<void> {
  const { server, profile, support } = ctx;
  await runSteps(server, profile.disable, `Disabling ${profile.name}`).catch(() => []);
  const logIn = support.logIn(ctx.fs.dir);
  if (answer === 'server did not start') {
    await runSteps(
      server,
      logIn.filter((s) => s.kind !== 'restart'),
      `Pointing ${profile.name} back`,
    );
    await server.restart();
  } else {
    // A log moved by my.cnf and a restart (SQL_ERROR_LOG) needs the restart before its plugin is back.
    await runSteps(server, logIn, `Pointing ${profile.name} back`);
  }
  await runSteps(server, setGlobals(profile.measureSettings), `Applying ${profile.name} settings`);
  await runSteps(server, support.enable ?? profile.enable, `Enabling ${profile.name}`);
}

// runSteps' message names the procedure and the step around the server's own words; the table keeps the latter.
const serverWords = (message: string): string =>
  /ERROR \d+ \(\w+\): .*?(?= \[in:|$)/.exec(message)?.[0] ?? message;

async function enableFault(
  ctx: FaultContext,
  fault: 'read-only-dir' | 'missing-dir',
  dir: string,
): Promise<FaultRecord> {
  const startedMs = clockOf(ctx).nowMs();
  const logBefore = await ctx.server.errorLogTail(400);
  let { answer, said } = await enableInto(ctx, dir);
  const up = answer !== 'server did not start';
  const state = up ? await pluginState(ctx.server, ctx.profile) : { installed: false, loggingOn: false };
  const { loggingOn } = state;
  // A plugin whose file opens at init (SQL_ERROR_LOG) is simply not loaded after the restart: its own kind of answer.
  if (up && !state.installed) answer = 'plugin not loaded';
  // [Note] lines are the restart's own (shutdown, InnoDB); the plugin's complaint is a warning or an error.
  const serverSaid = up
    ? newLines(logBefore, await ctx.server.errorLogTail(400)).filter((line) => !line.includes('[Note]'))
    : [];
  const values = up ? await counters(ctx).catch(() => ({})) : {};
  await restore(ctx, answer);
  const facts: FaultFacts[typeof fault] = { answer, loggingOn };
  return {
    fault,
    facts,
    mismatches: [],
    longestStallS: null,
    tpsBefore: null,
    tpsDuring: null,
    markersAcked: 0,
    markersLost: 0,
    landed: null,
    answer: said || 'no error, no warning',
    serverSaid: serverSaid.slice(0, 6),
    counters: values,
    durationS: (clockOf(ctx).nowMs() - startedMs) / 1000,
  };
}

/** A directory the server's OS user may not write (root's, mode 555) when logging is switched on. */
export async function readOnlyDir(ctx: FaultContext): Promise<FaultRecord> {
  const dir = path.join(ctx.fs.dir, 'read-only');
  await mkdir(path.join(ctx.fs.mountPoint, 'read-only'), { recursive: true });
  await chmod(path.join(ctx.fs.mountPoint, 'read-only'), 0o555);
  return enableFault(ctx, 'read-only-dir', dir);
}

/** A directory that does not exist (deleted, or never made) when logging is switched on. */
export async function missingDir(ctx: FaultContext): Promise<FaultRecord> {
  return enableFault(ctx, 'missing-dir', path.join(ctx.fs.dir, 'deleted'));
}
