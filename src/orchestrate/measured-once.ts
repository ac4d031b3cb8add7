import { createHash } from 'node:crypto';
import { readFile, rename, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { deserialize, serialize } from 'node:v8';
import type { ServerInfo } from '../servers/started-server.ts';
import { pointLabel } from '../workload/threads.ts';
import type { Outcome } from './outcome.ts';
import type { PlannedTest } from './planned-tests.ts';
import type { RunIdentity } from './run-identity.ts';

// A run is measured once per invocation. In a DBA's `npx vitest run` the runs suite and a test's `bench.run()` both
// take a run's sequence (src/vitest/run-bench.ts); whichever file comes first measures, the other reuses its A/As and
// measurements (lifecycle checks and the count are taken again: they read the server at hand). The entries live in a
// folder the project's global setup makes for the invocation and removes after it (suites/shared/check-config.ts).

/** The tests whose outcome is a measurement: what a second file of the invocation reuses. */
export type MeasuringTest = Extract<
  PlannedTest,
  { kind: 'calibration' | 'point-calibration' | 'measurement' | 'open-loop' }
>;

export const isMeasuring = (planned: PlannedTest): planned is MeasuringTest =>
  planned.kind === 'calibration' ||
  planned.kind === 'point-calibration' ||
  planned.kind === 'measurement' ||
  planned.kind === 'open-loop';

/** One run's measuring outcomes, by test title, and the file that took them. */
export interface MeasuredRun {
  by: string;
  outcomes: Record<string, Outcome>;
}

export interface MeasuredOnce {
  /** The file of this invocation that measures, named in the line a reusing run prints. */
  by: string;
  find(key: string): Promise<MeasuredRun | null>;
  keep(key: string, run: MeasuredRun): Promise<void>;
}

/**
 * What names a run's measurements across files: its configuration (the hash of each point), the workload, the limits
 * and policy its verdicts were judged on, the target and the server's flavor and version, and the measuring tests'
 * titles (its points). Another server started
 * from the same binary and configuration measures the same thing.
 */
export function measuredKey(
  id: RunIdentity,
  tests: PlannedTest[],
  server: ServerInfo,
  target: string,
): string {
  const measuring = tests.filter(isMeasuring);
  const points = measuring.map((t) => (t.kind === 'calibration' ? 'own' : pointLabel(t.point)));
  // Each point's hash once: the run's own point names its A/A and its measurement alike.
  const hashes = measuring.map(
    (t) => id.key(t.kind === 'calibration' ? undefined : { point: t.point }).configHash,
  );
  const named = {
    run: id.run.id,
    hashes: [...new Set(hashes)],
    workload: id.workload.name,
    // What the verdicts were judged on.
    limits: [id.run.maxOverheadPct, id.run.maxP99IncreasePct ?? null, id.run.policy],
    target,
    server: `${server.flavor} ${server.version}`,
    titles: measuring.map((t) => t.title),
    points,
  };
  return createHash('sha256').update(JSON.stringify(named)).digest('hex').slice(0, 32);
}

/**
 * The invocation's folder of measured runs. Entries go through v8's serializer (NaN and Infinity survive, as they do
 * on their way to the reporter) and are renamed into place whole.
 */
export function measuredIn(dir: string, by: string): MeasuredOnce {
  const file = (key: string) => path.join(dir, `${key}.v8`);
  return {
    by,
    async find(key) {
      try {
        return deserialize(await readFile(file(key))) as MeasuredRun;
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
        throw error;
      }
    },
    async keep(key, run) {
      const partial = `${file(key)}.${process.pid}.part`;
      await writeFile(partial, serialize(run));
      await rename(partial, file(key));
    },
  };
}
