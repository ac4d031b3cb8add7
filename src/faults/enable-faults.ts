import { chmod, mkdir } from 'node:fs/promises';
import path from 'node:path';
import { pluginState } from '../completeness/crash-phase.ts';
import { runSteps } from '../plugins/steps.ts';
import { counters, type FaultContext, setUpLogging } from './context.ts';
import type { EnableAnswer, FaultFacts } from './fault-profile.ts';
import type { FaultRecord } from './fault-record.ts';
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
      const message = String(error instanceof Error ? error.message : error).split('\n')[0] ?? '';
      answer = step.kind === 'restart' ? 'server did not start' : 'error';
      notes.push(message);
      break;
    }
  }
  return { answer, said: notes.join('; ') };
}

/** Brings the server back (when the bad path kept it from starting) and logging back onto the fault filesystem. */
async function restore(ctx: FaultContext, answer: EnableAnswer): Promise<void> {
  await runSteps(ctx.server, ctx.profile.disable, `Disabling ${ctx.profile.name}`).catch(() => []);
  const steps = ctx.support.logIn(ctx.fs.dir).filter((s) => s.kind !== 'restart');
  if (answer === 'server did not start') {
    await runSteps(ctx.server, steps, `Pointing ${ctx.profile.name} back`);
    await ctx.server.restart();
  }
  await setUpLogging(ctx);
}

async function enableFault(
  ctx: FaultContext,
  fault: 'read-only-dir' | 'missing-dir',
  dir: string,
): Promise<FaultRecord> {
  const startedMs = Date.now();
  const logBefore = await ctx.server.errorLogTail(400);
  const { answer, said } = await enableInto(ctx, dir);
  const up = answer !== 'server did not start';
  const { loggingOn } = up ? await pluginState(ctx.server, ctx.profile) : { loggingOn: false };
  const serverSaid = up ? newLines(logBefore, await ctx.server.errorLogTail(400)) : [];
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
    durationS: (Date.now() - startedMs) / 1000,
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
