import { totalBytes } from '../log-files.ts';
import { listLogFiles, readLogText } from '../log-reader.ts';
import { pluginStatus, readVariables, variableDiff } from '../server-state.ts';
import { runSteps } from '../steps.ts';
import { check, type LifecycleStep, toJson } from './context.ts';

const rotateSizeBytes = 16_384;
const rotations = 3;
// One logged statement below is ~1 KB; a file may pass the size limit by one record before it rotates.
const payload = 'x'.repeat(900);
const recordSlackBytes = 2_048;

export const rotation: LifecycleStep = {
  id: 'rotation',
  title: `rotates by size into .1..${rotations} and stays bounded`,
  async run(ctx) {
    const settings = ctx.profile.log.rotation;
    const sizeBytes = Math.max(settings?.minSizeBytes ?? 0, rotateSizeBytes);
    if (settings)
      await runSteps(ctx.server, settings.configure(sizeBytes, rotations), 'Configuring rotation');
    await runSteps(ctx.server, ctx.profile.enable, `Enabling ${ctx.profile.name}`);
    const statements = Math.ceil(((rotations + 3) * sizeBytes) / payload.length);
    for (let i = 0; i < statements; i++)
      await ctx.server.query(`SELECT '${ctx.marker}-rot-${i}-${payload}' AS r`);
    await runSteps(ctx.server, ctx.profile.disable, `Disabling ${ctx.profile.name}`);

    const files = await listLogFiles(ctx.server, ctx.profile);
    if (settings?.restore) await runSteps(ctx.server, settings.restore, 'Restoring rotation');
    const rotated = files
      .map((f) => f.generation)
      .filter((g) => g > 0)
      .sort((a, b) => a - b);
    const boundBytes = (rotations + 1) * (sizeBytes + recordSlackBytes);
    const totalOnDisk = totalBytes(files);
    const expected = ctx.profile.expected.rotates
      ? { rotatedFiles: Array.from({ length: rotations }, (_, i) => i + 1), withinBound: true }
      : { rotatedFiles: [], withinBound: false };
    return check(
      'rotation',
      expected,
      { rotatedFiles: rotated, withinBound: totalOnDisk <= boundBytes },
      toJson({
        rotateSizeBytes: sizeBytes,
        rotations,
        bytesWritten: statements * payload.length,
        totalBytesOnDisk: totalOnDisk,
        boundBytes,
        files: files.map((f) => ({ name: f.name, sizeBytes: f.sizeBytes })),
      }),
    );
  },
};

export const restart: LifecycleStep = {
  id: 'restart',
  title: 'after restart: still installed, logging off, variables at defaults',
  async run(ctx) {
    const { loggingVariable, variablesLike, name } = ctx.profile;
    await runSteps(ctx.server, ctx.profile.enable, `Enabling ${name}`);
    const before = await readVariables(ctx.server, variablesLike);
    await ctx.server.restart();
    const after = await readVariables(ctx.server, variablesLike);
    const observed = {
      installed: (await pluginStatus(ctx.server, name)) === 'ACTIVE',
      loggingOn: (ctx.profile.loggingOnValues ?? ['ON']).includes(after[loggingVariable] ?? ''),
      variablesReset: Object.entries(ctx.defaults).every(([k, v]) => after[k] === v),
    };
    return check(
      'restart',
      { ...ctx.profile.expected.afterRestart },
      observed,
      toJson({
        changed: variableDiff(ctx.defaults, before, after),
      }),
    );
  },
};

export const uninstall: LifecycleStep = {
  id: 'uninstall',
  title: 'uninstalls, and the server restarts cleanly',
  async run(ctx) {
    const { name, expected } = ctx.profile;
    // Logging on while uninstalling shows whether a "busy" plugin keeps auditing until shutdown.
    await runSteps(ctx.server, ctx.profile.enable, `Enabling ${name}`);
    const answers = await runSteps(ctx.server, ctx.profile.uninstall, `Uninstalling ${name}`);
    const warningCodes = [...new Set(answers.flatMap((a) => a.warnings.map((w) => w.code)))].sort(
      (a, b) => a - b,
    );
    const statusAfter = await pluginStatus(ctx.server, name);
    await ctx.server.query(`SELECT '${ctx.marker}-after-uninstall' AS auditbench_marker`);
    const stillLogs = (await readLogText(ctx.server, ctx.profile)).includes(`${ctx.marker}-after-uninstall`);
    let restartError: string | null = null;
    let statusAfterRestart: string | null = null;
    try {
      await ctx.server.restart();
      statusAfterRestart = await pluginStatus(ctx.server, name);
    } catch (error) {
      restartError = error instanceof Error ? error.message : String(error);
    }
    const observed = {
      warningCodes,
      needsRestart: statusAfter !== null,
      stillLogs,
      restartsCleanly: restartError === null,
      goneAfterRestart: restartError === null && statusAfterRestart === null,
    };
    const wanted = { ...expected.uninstall, restartsCleanly: true, goneAfterRestart: true };
    return check(
      'uninstall',
      wanted,
      observed,
      toJson({ answers, statusAfter, statusAfterRestart, restartError }),
    );
  },
};
