import { availableParallelism } from 'node:os';
import { realSysbench, type SysbenchRunner } from '../bench/subject.ts';
import type { Environment } from '../config/env.ts';
import type { Clock } from '../machine/clock.ts';
import type { Probe } from '../machine/sampled-block.ts';
import { startLocalServer } from '../servers/local-server.ts';
import { startServer } from '../servers/start-server.ts';
import type { StartedServer } from '../servers/started-server.ts';
import { prepareSysbench, runSysbenchEvents } from '../workload/sysbench-runner.ts';
import { countComparison } from './counted-run.ts';

/**
 * What the counted sequence replaces (counted-sequence.ts): the local server it restarts under callgrind, and
 * sysbench's prepare and its runs of fixed transactions.
 */
export interface CountedParts {
  startLocalServer: typeof startLocalServer;
  prepare: typeof prepareSysbench;
  events: typeof runSysbenchEvents;
}

/**
 * What a unit test replaces: the server, the innermost sysbench, the machine probe, the clock, the CPUs, the gate's
 * count (a count that throws, as callgrind's server can), and the counted sequence's parts.
 */
export interface Seams {
  startServer: (config: Environment) => Promise<StartedServer>;
  sysbench: SysbenchRunner;
  probe?: Probe;
  clock?: Clock;
  cpus: number;
  log: (line: string) => void;
  countComparison: typeof countComparison;
  counted: CountedParts;
}

export const liveSeams: Seams = {
  startServer,
  sysbench: realSysbench,
  cpus: availableParallelism(),
  log: (line) => console.log(line),
  countComparison,
  counted: { startLocalServer, prepare: prepareSysbench, events: runSysbenchEvents },
};

/** The seams a measurement takes (src/bench/pipeline.ts): the traffic's runner, and the probe and clock if replaced. */
export const measuringSeams = (seams: Seams, runner: SysbenchRunner) => ({
  runner,
  ...(seams.probe ? { probe: seams.probe } : {}),
  ...(seams.clock ? { clock: seams.clock } : {}),
});

/**
 * The seams a counted sequence takes (counted-sequence.ts, counted-run.ts): its parts, and the clock its spans are read
 * on (the real one when none is given). Imported as a type only there: this file imports the gate's count.
 */
export type CountedSeams = Pick<Seams, 'counted' | 'clock'>;
