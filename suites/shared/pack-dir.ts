import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { TestProject } from 'vitest/node';

// The value's type is declared where it is read (test/support/dba-repo.ts).
/**
 * Vitest global setup: one folder per run for the packed tarball, so the suites that install auditbench in a DBA's
 * repository pack it once between them rather than once per file, and the tarball goes when the run ends.
 */
export default async function packDir(project: TestProject): Promise<() => Promise<void>> {
  const dir = await mkdtemp(path.join(tmpdir(), 'auditbench-tarball-'));
  project.provide('auditbenchPackDir', dir);
  return () => rm(dir, { recursive: true, force: true });
}
