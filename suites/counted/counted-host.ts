import { expect } from 'vitest';
import type { ArmSteps } from '../../src/bench/subject.ts';
import type { Environment } from '../../src/config/env.ts';
import { countedRecord, describeCounted } from '../../src/counted/count-run.ts';
import {
  type CountedPlan,
  type CountedServer,
  type CountedSubject,
  countArms,
  startCountedServer,
} from '../../src/counted/counted-ab.ts';
import { countedIdentity } from '../../src/counted/identity.ts';
import type { PluginProfile } from '../../src/plugins/profile.ts';
import { setGlobals } from '../../src/plugins/steps.ts';
import type { CountedRecord } from '../../src/results/counted-record.ts';
import type { SysbenchJob } from '../../src/workload/workload.ts';

/** One local server under callgrind with every plugin installed and off; each count is one plugin off against on. */
export interface CountedHost {
  start(): Promise<void>;
  /** A profile counted off against on (or the arms given), checked for lost threads and ids of one width. */
  count(profile: PluginProfile, job: SysbenchJob, label: string, arms?: ArmSteps): Promise<CountedRecord>;
  stop(): Promise<void>;
}

export function countedHost(
  config: Environment,
  opts: { installed: PluginProfile[]; job: SysbenchJob; plan: CountedPlan },
): CountedHost {
  const { plan } = opts;
  let host: CountedServer | undefined;
  return {
    async start() {
      const setup: CountedSubject = {
        label: 'server_audit, SQL_ERROR_LOG and the general log',
        setup: opts.installed.flatMap((p) => [...p.install, ...setGlobals(p.measureSettings), ...p.disable]),
        arms: { off: [], on: [] },
        log: null,
      };
      host = await startCountedServer(config, {
        job: opts.job,
        subject: setup,
        loader: async (s) => s.connection,
        progress: console.log,
      });
    },
    async count(profile, job, label, arms = { off: profile.disable, on: profile.enable }) {
      if (!host) throw new Error('The counted server did not start; see the first error');
      const started = Date.now();
      const subject = { label, setup: [], arms, log: profile };
      const outcome = await countArms(host, { job, subject, plan, progress: console.log });
      const identity = await countedIdentity(host.server, profile.soname, null, describeCounted(job, plan));
      const record = countedRecord(outcome, {
        subject: label,
        plan,
        identity,
        soname: profile.soname,
        startedMs: started,
      });
      expectWhole(record, label);
      return record;
    },
    stop: async () => host?.server.stop(),
  };
}

/** No arm lost its threads' syscalls, and every arm's audit lines carry ids of one width (src/counted/id-widths.ts). */
function expectWhole(record: CountedRecord, label: string): void {
  for (const arm of record.arms)
    expect(arm.lostThreads, `${label}: an arm lost its threads' syscalls`).toBe(0);
  for (const [what, ids] of [
    ['query', record.queryIds],
    ['connection', record.connectionIds],
  ] as const) {
    expect(ids, `${label}: the ${what} ids around the arms were not read`).toBeTruthy();
    if (ids)
      expect(String(ids.last).length, `${label}: ${what} ids ${JSON.stringify(ids)}`).toBe(
        String(ids.first).length,
      );
  }
}
