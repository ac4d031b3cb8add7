import type { ProjectionTraffic } from '../config/projection-traffic.ts';
import { measurePerEvent } from '../per-event/measure-per-event.ts';
import type { PerEventPlan } from '../per-event/plan.ts';
import { rotationFromVariables } from '../per-event/rotation.ts';
import { unavailableReason } from '../plugins/availability.ts';
import { expectationsOn } from '../plugins/profile.ts';
import { runSteps, setGlobals } from '../plugins/steps.ts';
import { projectCost } from '../projection/project.ts';
import { resultKey } from '../runs/result-key.ts';
import type { ResolvedRun } from '../runs/runs.ts';
import type { StartedServer } from '../servers/started-server.ts';
import { trafficConnections } from '../servers/traffic-accounts.ts';
import type { Outcome } from './outcome.ts';

// One run's per-event cost (tinybench + mysql2, plugin off/on in ABBA pairs) and its projection onto production
// traffic: installed, measured as the run's application account, then off and uninstalled for the next run.

export interface PerEventOptions {
  workload: string;
  plan: PerEventPlan;
  traffic: ProjectionTraffic;
  log: (message: string) => void;
}

export async function perEventRun(
  server: StartedServer,
  run: ResolvedRun,
  options: PerEventOptions,
): Promise<Outcome> {
  const { profile } = run;
  const skip = await unavailableReason(server, profile);
  if (skip) return { skip };
  // The operations log in as the application account: a filter that leaves it out would price events never logged.
  if (run.userFilter?.refusal) return { failure: `${run.id}: ${run.userFilter.refusal}` };
  await runSteps(server, profile.install, `Installing ${profile.name}`);
  try {
    return await measured(server, run, options);
  } finally {
    // The next run gets the server without this plugin (a built-in has no uninstall steps).
    await runSteps(server, profile.disable, `Turning ${profile.name} off`);
    if (expectationsOn(profile, server.info.flavor).uninstall.crashes) {
      // Its uninstall takes the server down (the runs suite records that as a finding): leave it installed, off.
      options.log(
        'not uninstalled: its uninstall crashes this server (see the runs suite); restarting instead',
      );
      await server.restart();
    } else await runSteps(server, profile.uninstall, `Uninstalling ${profile.name}`);
  }
}

async function measured(server: StartedServer, run: ResolvedRun, options: PerEventOptions): Promise<Outcome> {
  const { profile } = run;
  const { plan, traffic, log } = options;
  await runSteps(server, setGlobals(profile.measureSettings), `Applying ${profile.name} settings`);
  // The operations log in as the run's application account, as the measured traffic does.
  const { application } = await trafficConnections(server, run.traffic.accounts);
  const sample = await measurePerEvent(server, profile, { plan, progress: log, as: application });
  const rotation = rotationFromVariables(await pluginVariables(server, profile.variablesLike));
  const projection = projectCost(sample.operations, traffic, rotation);
  for (const o of sample.operations) {
    const ci = o.addedCi95Us ? ` [${o.addedCi95Us.map((v) => v.toFixed(1)).join(', ')}]` : '';
    log(
      `${o.kind}: ${o.offUs.toFixed(0)} → ${o.onUs.toFixed(0)} µs, +${o.addedUs.toFixed(1)} µs${ci}, ${o.eventsPerOp ?? '?'} events, ${o.logBytesPerOp?.toFixed(0) ?? '?'} B per op`,
    );
  }
  log(
    `projection: ${projection.cpuCoresPeak.toFixed(3)} cores at peak, ${projection.logGbPerDay.toFixed(1)} GB/day, ${JSON.stringify(projection.disk)}`,
  );
  const key = resultKey(run, server.info, { workload: options.workload, limitPct: run.maxOverheadPct });
  const perEvent = { ...sample, segmentMs: plan.segmentMs, pairs: plan.pairs, rotation, traffic, projection };
  // Every run logs something (queries, errors or logins): a run that wrote nothing measured nothing.
  const wrote = sample.operations.some((o) => (o.logBytesPerOp ?? 0) > 0);
  const label = `${run.title} wrote no log bytes in the per-event measurement`;
  return {
    record: { ...key, kind: 'per-event', perEvent },
    expectations: [{ label, observed: wrote, expected: true }],
  };
}

async function pluginVariables(server: StartedServer, like: string): Promise<Record<string, string>> {
  const { rows } = await server.query(`SHOW GLOBAL VARIABLES LIKE '${like}'`);
  return Object.fromEntries(rows.map((r) => [String(r.Variable_name), String(r.Value)]));
}
