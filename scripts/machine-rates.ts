// npm run bench:rates -- [workload] [repeats]: the machine calibration's readings (src/counted/machine-rates.ts) on a
// local server with no plugin, `repeats` times (default smoke, 5): how busy the server's core is, what its CPU
// spends per transaction, and the kernel time of a write() at the timed record sizes. Says how much the rates move
// between readings on this machine (docs/measurements/2026-12-05-calibration.md).

import { prepareMeasurement } from '../src/bench/measure-overhead.ts';
import { planFor } from '../src/bench/measure-plan.ts';
import { realSysbench } from '../src/bench/subject.ts';
import { loadEnvironment } from '../src/config/env.ts';
import { readMachineRates, WRITE_SIZES } from '../src/counted/machine-rates.ts';
import { takeRunLock } from '../src/lock/run-lock.ts';
import { startServer } from '../src/servers/start-server.ts';
import type { WorkloadName } from '../src/workload/workload.ts';
import { getWorkload } from '../src/workload/workloads.ts';

const [name = 'smoke', repeatsArg = '5'] = process.argv.slice(2);
const workload = getWorkload(name as WorkloadName);
const repeats = Number(repeatsArg);
const release = await takeRunLock(7200, (line) => process.stderr.write(`${line}\n`));
const server = await startServer(loadEnvironment());
try {
  const planned = planFor({ workload });
  await prepareMeasurement(server, planned, (line) => process.stderr.write(`${line}\n`));
  console.log(`${workload.name}: ${planned.job.threads} threads, pinned ${planned.plan.pinCpus}`);
  console.log(
    `reading\ttx/s\tserver CPU µs/tx\tconnection user µs/tx\tcores used\tcore idle %\t${WRITE_SIZES.map((b) => `write(${b} B) µs`).join('\t')}`,
  );
  for (let i = 1; i <= repeats; i++) {
    const rates = await readMachineRates(server, {
      job: planned.job,
      pinned: planned.plan.pinCpus,
      turnOff: [],
      runner: realSysbench,
      logFile: null,
    });
    if (rates.failed) throw new Error(rates.failed);
    console.log(
      [
        i,
        (rates.transactions / rates.seconds).toFixed(0),
        (rates.serverCpuPerTx * 1e6).toFixed(0),
        (rates.connectionUserPerTx * 1e6).toFixed(0),
        rates.coresUsed.toFixed(2),
        (rates.idleShare * 100).toFixed(1),
        ...rates.writeTimings.map((t) => (t.seconds * 1e6).toFixed(2)),
      ].join('\t'),
    );
  }
} finally {
  await server.stop();
  await release();
}
