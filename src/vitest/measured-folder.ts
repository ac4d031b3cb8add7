import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { inject } from 'vitest';
import type { TestProject } from 'vitest/node';
import { type MeasuredOnce, measuredIn } from '../orchestrate/measured-once.ts';
import { tempPrefix } from '../servers/cleanup.ts';
import { writeOwnerRecord } from '../servers/owner-record.ts';

// The invocation's folder of measured runs (src/orchestrate/measured-once.ts): made by the project's global setup,
// handed to its files with Vitest's provide/inject, emptied when watch mode reruns, removed at the end. It carries an
// owner record, so a sweep removes it after a run that was killed.

declare module 'vitest' {
  export interface ProvidedContext {
    auditbenchMeasured: string;
    /** Set in the project of the plugin's `parallel` files (src/vitest/plugin.ts), whose files run side by side. */
    auditbenchParallel?: boolean;
  }
}

/** In the global setup: the folder, provided to the project's files; the returned function removes it. */
export async function provideMeasuredFolder(project: TestProject): Promise<() => Promise<void>> {
  const make = async () => {
    const dir = await mkdtemp(path.join(tmpdir(), `${tempPrefix}measured-`));
    await writeOwnerRecord(dir);
    project.provide('auditbenchMeasured', dir);
    return dir;
  };
  let dir = await make();
  project.onTestsRerun(async () => {
    await rm(dir, { recursive: true, force: true });
    dir = await make();
  });
  return () => rm(dir, { recursive: true, force: true });
}

/** In a test file: the invocation's measured runs, `by` naming this file in what a reusing file prints. */
export function measuredOnceHere(by: string): MeasuredOnce | null {
  if (inject('auditbenchParallel') === true)
    throw new Error(
      `${path.relative(process.cwd(), by)} measures, and it is one of auditbench({ parallel })'s files, which run beside each other: a measurement there would share the CPUs with another file; take it out of parallel`,
    );
  const dir = inject('auditbenchMeasured');
  return dir ? measuredIn(dir, path.relative(process.cwd(), by)) : null;
}
