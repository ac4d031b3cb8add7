import { availableParallelism } from 'node:os';
import { realSysbench, type SysbenchRunner } from '../bench/subject.ts';
import type { Environment } from '../config/env.ts';
import { countComparison } from '../counted/run-counted.ts';
import type { Clock } from '../machine/clock.ts';
import type { Probe } from '../machine/sampled-block.ts';
import { startServer } from '../servers/start-server.ts';
import type { StartedServer } from '../servers/started-server.ts';

/**
 * What a unit test replaces: the server, the innermost sysbench, the machine probe, the clock, the CPUs, and the gate's
 * count (a count that throws, as callgrind's server can).
 */
export interface Seams {
  startServer: (config: Environment) => Promise<StartedServer>;
  sysbench: SysbenchRunner;
  probe?: Probe;
  clock?: Clock;
  cpus: number;
  log: (line: string) => void;
  countComparison: typeof countComparison;
}

export const liveSeams: Seams = {
  startServer,
  sysbench: realSysbench,
  cpus: availableParallelism(),
  log: (line) => console.log(line),
  countComparison,
};

/** The seams a measurement takes (src/bench/pipeline.ts): the traffic's runner, and the probe and clock if replaced. */
export const measuringSeams = (seams: Seams, runner: SysbenchRunner) => ({
  runner,
  ...(seams.probe ? { probe: seams.probe } : {}),
  ...(seams.clock ? { clock: seams.clock } : {}),
});
