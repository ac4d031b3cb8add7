import os from 'node:os';
import type { Machine } from './schema.ts';

/** The machine a run was measured on: figures are only comparable between runs on the same kind of machine. */
export function describeMachine(): Machine {
  const cpus = os.cpus();
  return {
    hostname: os.hostname(),
    cpuModel: cpus[0]?.model.trim() ?? 'unknown',
    cores: cpus.length,
    memoryBytes: os.totalmem(),
    platform: `${os.platform()} ${os.release()}`,
    node: process.version,
  };
}
