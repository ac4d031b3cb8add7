import type { ArmSteps } from '../bench/subject.ts';
import type { Environment } from '../config/env.ts';
import { countedRecord, describeCounted } from '../counted/count-run.ts';
import type { CountedPlan, CountedServer, CountedSubject } from '../counted/counted-ab.ts';
import { countedIdentity } from '../counted/identity.ts';
import { realClock } from '../machine/clock.ts';
import type { PluginProfile } from '../plugins/profile.ts';
import { setGlobals } from '../plugins/steps.ts';
import type { CountedRecord } from '../results/counted-record.ts';
import type { SysbenchJob } from '../workload/workload.ts';
import { countArms, restartUnder, startCountedServer } from './counted-sequence.ts';
import { type CountedSeams, liveSeams } from './seams.ts';

// The counted channel's own host (suites/counted.suite.ts): one local server under callgrind with every plugin
// installed and off, each count one plugin off against on (or the arms given), on the same server.

/** One local server under callgrind with every plugin installed and off; each count is one plugin off against on. */
export interface CountedHost {
  start(): Promise<void>;
  /** A profile counted off against on (or the arms given): its record, with each arm's threads and the ids around. */
  count(
    profile: PluginProfile,
    job: SysbenchJob,
    label: string,
    arms?: ArmSteps,
    plan?: CountedPlan,
  ): Promise<CountedRecord>;
  /** Restarts the server with another thread_handling: the counts that follow run under it. */
  restartUnder(threadHandling: string): Promise<void>;
  stop(): Promise<void>;
}

export function countedHost(
  config: Environment,
  opts: { installed: PluginProfile[]; job: SysbenchJob; plan: CountedPlan },
  seams: CountedSeams = liveSeams,
): CountedHost {
  const clock = seams.clock ?? realClock;
  let host: CountedServer | undefined;
  const setup: CountedSubject = {
    label: 'server_audit, SQL_ERROR_LOG and the general log',
    setup: opts.installed.flatMap((p) => [...p.install, ...setGlobals(p.measureSettings), ...p.disable]),
    arms: { off: [], on: [] },
    log: null,
  };
  return {
    async start() {
      host = await startCountedServer(
        config,
        { job: opts.job, subject: setup, loader: async (s) => s.connection, progress: console.log },
        seams,
      );
    },
    async count(profile, job, label, arms = { off: profile.disable, on: profile.enable }, plan = opts.plan) {
      if (!host) throw new Error('The counted server did not start; see the first error');
      const started = clock.nowMs();
      const subject = { label, setup: [], arms, log: profile };
      const outcome = await countArms(host, { job, subject, plan, progress: console.log }, seams);
      const identity = await countedIdentity(host.server, profile.soname, null, describeCounted(job, plan));
      const record = countedRecord(outcome, {
        subject: label,
        plan,
        identity,
        soname: profile.soname,
        wallS: (clock.nowMs() - started) / 1000,
      });
      return record;
    },
    async restartUnder(threadHandling) {
      if (!host) throw new Error('The counted server did not start; see the first error');
      host = await restartUnder(host, setup, threadHandling, console.log, seams);
    },
    stop: async () => host?.server.stop(),
  };
}
