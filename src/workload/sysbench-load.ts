import type { ConnectionOptions } from '../servers/started-server.ts';
import { runSysbench } from './sysbench-runner.ts';
import type { SysbenchJob } from './workload.ts';

/**
 * sysbench as a load beside something else (markers, a fault): resolves once its threads run, and `stop` ends it.
 * `what` names the phase in the one error a load that never started gives.
 */
export async function startSysbenchLoad(
  conn: ConnectionOptions,
  job: SysbenchJob,
  options: { durationS: number; what: string; onReportLine?: (atS: number, line: string) => void },
): Promise<{ stop: () => Promise<void> }> {
  const controller = new AbortController();
  let started: () => void = () => {};
  const running = new Promise<void>((resolve) => {
    started = resolve;
  });
  const load = runSysbench(conn, job, {
    durationS: options.durationS,
    signal: controller.signal,
    onThreadsStarted: started,
    ...(options.onReportLine ? { onReportLine: options.onReportLine } : {}),
  }).then(
    (run) => (run.ok ? 'sysbench ended early' : `sysbench stopped: ${run.reason}`),
    (error: unknown) => (controller.signal.aborted ? null : String(error)),
  );
  const early = await Promise.race([running.then(() => null), load]);
  if (early) throw new Error(`The load for ${options.what} did not start: ${early}`);
  return {
    async stop() {
      controller.abort();
      await load;
    },
  };
}
