import { afterAll, beforeAll, describe, type TestContext, test } from 'vitest';
import { formatFaultRecord } from '../../reporters/format/format-faults.ts';
import type { Environment } from '../../src/config/env.ts';
import type { ReceiverContext } from '../../src/faults/receiver-context.ts';
import {
  prepareReceiverFaults,
  receiverFault,
  receiverFaultsUnsupported,
} from '../../src/faults/receiver-faults.ts';
import type { FaultRecord, ReceiverFaultName } from '../../src/results/fault-record.ts';
import { receiverFaultNames } from '../../src/results/fault-record.ts';
import type { ResolvedRun } from '../../src/runs/runs.ts';
import type { StartedServer } from '../../src/servers/started-server.ts';
import type { Workload } from '../../src/workload/workload.ts';
import { phaseServer } from './phase-server.ts';

/** What a suite holds a receiver fault's record to; the faults suite's named set only reports (it asserts nothing). */
export type ReceiverFaultExpectations = Partial<Record<ReceiverFaultName, (record: FaultRecord) => void>>;

/**
 * A syslog run's receiver paused, killed and its socket removed under load (src/faults/receiver-faults.ts), or the
 * faults `names` lists, on one fresh local server with the run's own rsyslogd. suites/faults.suite.ts declares all
 * three when AUDITBENCH_FAULTS names `receiver`; suites/log-destinations.suite.ts the pause alone, with expectations.
 */
export function receiverFaultSuite(
  run: ResolvedRun,
  config: Environment,
  workload: Workload,
  opts: { names?: readonly ReceiverFaultName[]; expectations?: ReceiverFaultExpectations } = {},
): void {
  const { profile } = run;
  const unsupported = receiverFaultsUnsupported(profile);
  if (unsupported) {
    test.skip(`receiver faults: ${run.title}: ${unsupported}`, () => {});
    return;
  }
  const phases = phaseServer('receiver faults', run, config, workload);
  const { log } = phases;
  let ctx: ReceiverContext | undefined;

  async function fault(context: TestContext, name: ReceiverFaultName) {
    const server = phases.ready(context);
    if (!ctx) throw new Error("The receiver's faults were not prepared; see the error of the first test");
    const record = await receiverFault(ctx, name);
    context.task.meta.auditbench = { ...phases.key(server), kind: 'faults', fault: record };
    log(formatFaultRecord(record));
    opts.expectations?.[name]?.(record);
  }

  describe(`receiver faults: ${run.id}: ${run.title}`, () => {
    beforeAll(async () => {
      const ownReceiver = (server: StartedServer) =>
        server.syslogReceiver?.()
          ? null
          : `the receiver faults need the run's own rsyslogd, which only the local target gives (as root, with unshare and rsyslogd); this server is ${server.info.target}`;
      if (!(await phases.start(ownReceiver))) return;
      const application = await phases.prepareTables();
      ctx = await prepareReceiverFaults(phases.server(), profile, { workload, application, progress: log });
    });
    afterAll(() => phases.stop());

    for (const name of opts.names ?? receiverFaultNames) test(name, (context) => fault(context, name));
  });
}
