import type { Measurement } from '../results/schema.ts';
import type { StartedServer } from '../servers/started-server.ts';
import { median } from '../stats/descriptive.ts';
import type { Arm } from '../stats/tps-pair.ts';

/** The server's resident memory at one moment of one arm. */
export interface MemorySample {
  arm: Arm;
  bytes: number;
}

/** Reads the server's resident memory into `into` under `arm`; a target that cannot read it adds nothing. */
export async function sampleMemory(server: StartedServer, arm: Arm, into: MemorySample[]): Promise<void> {
  const bytes = await server.residentBytes?.().catch(() => null);
  if (typeof bytes === 'number') into.push({ arm, bytes });
}

type MemoryRecord = NonNullable<Measurement['memory']>;

const MIB = 1024 * 1024;

/**
 * The resident memory of each arm as the median of its samples, and the change with the plugin on. What the plugin
 * allocates when it is installed stays through both arms of one toggled run, so the change is what switching it on
 * adds (buffers, open files), not its whole footprint.
 */
export function summariseMemory(samples: readonly MemorySample[], why: string): MemoryRecord {
  const of = (arm: Arm) => samples.filter((s) => s.arm === arm).map((s) => s.bytes / MIB);
  const off = of('off');
  const on = of('on');
  const [firstOff] = off;
  const [firstOn] = on;
  if (firstOff === undefined || firstOn === undefined) return { measured: false, reason: why };
  const offMiB = median([firstOff, ...off.slice(1)]);
  const onMiB = median([firstOn, ...on.slice(1)]);
  return {
    measured: true,
    offMiB,
    onMiB,
    changeMiB: onMiB - offMiB,
    maxMiB: Math.max(...off, ...on),
    samples: samples.length,
  };
}
