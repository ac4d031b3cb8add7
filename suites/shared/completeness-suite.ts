import { afterAll, beforeAll, describe, expect, type TestContext, test } from 'vitest';
import { formatCompletenessTable } from '../../reporters/format/format-completeness.ts';
import { claimsUnderUserFilter, completenessSetupFor } from '../../src/completeness/claims.ts';
import { crashPhase } from '../../src/completeness/crash-phase.ts';
import type { CompletenessContext } from '../../src/completeness/phase-context.ts';
import { loadPhase, quietPhase } from '../../src/completeness/phases.ts';
import { loadPhaseTitle, smokeSizes } from '../../src/completeness/setup.ts';
import type { Environment } from '../../src/config/env.ts';
import { runSteps, setGlobals } from '../../src/plugins/steps.ts';
import type { CompletenessPhase } from '../../src/results/schema.ts';
import type { ResolvedRun } from '../../src/runs/runs.ts';
import type { Workload } from '../../src/workload/workload.ts';
import { phaseServer } from './phase-server.ts';

/**
 * Does the plugin lose, duplicate or tear events? Markers of every kind, counted in every log file: quiet, under
 * sysbench with the log rotating (or not, where the run's log rotates nothing), and across a SIGKILL
 * (src/completeness). One fresh server for the run. suites/completeness.suite.ts declares it for every run of the
 * configuration, suites/log-destinations.suite.ts for a syslog run and the general log's table.
 */
export function completenessSuite(run: ResolvedRun, config: Environment, workload: Workload): void {
  const { profile } = run;
  const setup = completenessSetupFor(profile);
  if (!setup) {
    const why =
      profile.log.file === null
        ? 'writes no log file'
        : 'has no completeness setup in its profile (profile.completeness)';
    test.skip(`completeness: ${run.title} ${why}`, () => {});
    return;
  }
  const phases = phaseServer('completeness', run, config, workload);
  const { log } = phases;
  let ctx: CompletenessContext | undefined;

  async function phase(
    context: TestContext,
    measure: (c: CompletenessContext) => Promise<CompletenessPhase>,
  ) {
    const server = phases.ready(context);
    if (!ctx) throw new Error('The completeness phases were not prepared; see the error of the first test');
    const record = await measure(ctx);
    context.task.meta.auditbench = { ...phases.key(server), kind: 'completeness', completeness: record };
    log(`${record.phase}: ${record.reason}\n${formatCompletenessTable(record)}`);
    expect(record.ok, `${run.title}, ${record.phase}: ${record.reason}`).toBe(true);
  }

  describe(`completeness: ${run.id}: ${run.title}`, () => {
    beforeAll(async () => {
      if (!(await phases.start())) return;
      const server = phases.server();
      // Rotation that needs a restart goes first; one set live goes after the measuring settings, which may set it too.
      const rotation = setup.rotation;
      const rotationSteps =
        rotation.kind === 'size' && profile.log.rotation
          ? profile.log.rotation.configure(rotation.sizeBytes, rotation.rotations)
          : [];
      const live = rotationSteps.every((step) => step.kind === 'sql');
      if (!live) await runSteps(server, rotationSteps, `Configuring ${profile.name} rotation`);
      // sysbench loads the tables and the server as the run's application account, as the run measures it.
      const application = await phases.prepareTables();
      await runSteps(server, setGlobals(profile.measureSettings), `Applying ${profile.name} settings`);
      if (live) await runSteps(server, rotationSteps, `Configuring ${profile.name} rotation`);
      await runSteps(server, profile.enable, `Enabling ${profile.name}`);
      ctx = {
        server,
        profile,
        setup,
        // Markers log in as accounts of their own: a user filter that leaves them out makes their kinds absent.
        claims: claimsUnderUserFilter(setup.claims(profile), run.userFilter?.audits ?? null),
        sizes: smokeSizes,
        workload,
        application,
        schema: 'auditbench_completeness',
        progress: log,
      };
    });
    afterAll(() => phases.stop());

    test('quiet: every claimed marker logged once, excluded kinds absent', (context) =>
      phase(context, quietPhase));
    test(loadPhaseTitle(setup.rotation, smokeSizes), (context) => phase(context, loadPhase));
    test('SIGKILL under load: lines parse, crash losses counted, state after restart as profiled', (context) =>
      phase(context, crashPhase));
  });
}
