import { readdir, rm } from 'node:fs/promises';
import path from 'node:path';
import { prepareMarkers } from '../completeness/marker-workload.ts';
import { newTag } from '../completeness/markers.ts';
import type { PluginProfile } from '../plugins/profile.ts';
import type { FaultRecord } from '../results/fault-record.ts';
import type { StartedServer } from '../servers/started-server.ts';
import { type FaultContext, logPath, setUpLogging } from './context.ts';
import { missingDir, readOnlyDir } from './enable-faults.ts';
import { mountFaultFs } from './fault-fs.ts';
import { compareFacts, describeMismatch, type FaultFacts, type FaultName } from './fault-profile.ts';
import { copytruncate, diskFull, frozen, moved } from './load-faults.ts';

/** The mount point's name inside the datadir; a directory there is also a schema name to the server, a harmless one. */
export const FAULT_DIR = 'auditbench_faultlog';
// Room for a minute of server_audit under smoke's load; the filler takes whatever is left.
const FAULT_FS_MIB = 256;

export const runFault: Record<FaultName, (ctx: FaultContext) => Promise<FaultRecord>> = {
  'disk-full': diskFull,
  frozen,
  moved,
  copytruncate,
  'read-only-dir': readOnlyDir,
  'missing-dir': missingDir,
};

/** Why a profile has no fault phase, or null. */
export function faultsUnsupported(profile: PluginProfile): string | null {
  if (profile.log.file === null || profile.log.format === null) return 'writes no log file';
  if (profile.log.notMovable) return profile.log.notMovable;
  if (!profile.faults) return 'its profile declares no `faults` (how to move and reopen its log)';
  return null;
}

/**
 * Mounts the fault filesystem in the server's datadir and moves the plugin's log onto it, logging on. The plugin is
 * installed and the sysbench tables prepared already. Dispose the returned filesystem before stopping the server.
 */
export async function prepareFaults(
  server: StartedServer,
  profile: PluginProfile,
  opts: Pick<FaultContext, 'workload' | 'application' | 'progress'>,
): Promise<FaultContext> {
  const { workload, application, progress } = opts;
  const support = profile.faults;
  const format = profile.log.format;
  if (!support || format === null) throw new Error(`${profile.name}: ${faultsUnsupported(profile)}`);
  const { rows } = await server.query('SELECT @@datadir AS datadir');
  const fs = await mountFaultFs(String(rows[0]?.datadir ?? ''), FAULT_DIR, FAULT_FS_MIB);
  try {
    const names = { tag: newTag(), schema: 'auditbench_faults' };
    await prepareMarkers(server, names);
    const ctx: FaultContext = {
      server,
      profile,
      support,
      format,
      workload,
      application,
      fs,
      names,
      progress,
    };
    await setUpLogging(ctx);
    return ctx;
  } catch (error) {
    await fs.remove();
    throw error;
  }
}

/** Deletes the copies earlier faults left (moved, rotated, filler), so each fault starts with room and one file. */
async function tidy(ctx: FaultContext): Promise<void> {
  const keep = path.basename(logPath(ctx));
  for (const entry of await readdir(ctx.fs.mountPoint, { withFileTypes: true })) {
    if (entry.isFile() && entry.name !== keep)
      await rm(path.join(ctx.fs.mountPoint, entry.name), { force: true });
  }
}

/** Runs one fault and judges its facts against the profile's expectations. */
export async function faultPhase(ctx: FaultContext, fault: FaultName): Promise<FaultRecord> {
  await tidy(ctx);
  ctx.progress(fault);
  const observed = await runFault[fault](ctx);
  const mismatches = compareFacts(ctx.support.expected, { [fault]: observed.facts } as Partial<FaultFacts>);
  return { ...observed, mismatches: mismatches.map(describeMismatch) };
}
