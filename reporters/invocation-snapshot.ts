import { randomUUID } from 'node:crypto';
import path from 'node:path';
import type { TestModule } from 'vitest/node';
import { type Environment, loadEnvironment } from '../src/config/env.ts';
import {
  defaultHistoryPolicy,
  defaultRunPolicy,
  type HistoryPolicy,
  policyOn,
} from '../src/config/policy.ts';
import { baseBranchOf, type Comparison, compareWithBase } from '../src/history/compare.ts';
import { type CountedComparison, compareCounted } from '../src/history/counted-compare.ts';
import { type HistoryEntry, type Revision, toHistoryEntries } from '../src/history/entry.ts';
import { currentRevision } from '../src/history/git.ts';
import { HISTORY_FILE, readHistory } from '../src/history/history-store.ts';
import { aggregateResults } from '../src/results/aggregate.ts';
import { describeMachine } from '../src/results/machine.ts';
import { type ResultsFile, resultsFileSchema } from '../src/results/schema.ts';
import { type ImportModule, loadPolicy } from '../src/runs/load-runs.ts';
import { collectMatrix, collectRecords } from './collect-records.ts';

/** Everything the end-of-run reporters share, computed once per invocation so they all tell the same story. */
export interface InvocationSnapshot {
  config: Environment;
  /** How the history judges this run: auditbench.config.ts's top level, AUDITBENCH_MAX_REGRESSION_PP over it. */
  policy: SnapshotPolicy;
  /** This invocation's id (a UUID): in its history lines and its own results file (runs/). */
  invocationId: string;
  file: ResultsFile;
  revision: Revision;
  /** This invocation's history lines. */
  entries: HistoryEntry[];
  /** The history as it was before this invocation appended anything. */
  prior: HistoryEntry[];
  historyFile: string;
  historyWarnings: string[];
  baseBranch: string;
  comparisons: Comparison[];
  /** Counted figures against the base branch's entry of the same identity, on any machine (src/counted). */
  countedComparisons: CountedComparison[];
}

export interface SnapshotPolicy extends HistoryPolicy {
  /** What an inconclusive change against the base does (the top level's `inconclusive`; quick passes it). */
  inconclusive: 'fail' | 'pass';
}

/** The pure part: this invocation's entries and their comparisons with the prior history. */
export function buildSnapshot(input: {
  config: Environment;
  policy: SnapshotPolicy;
  file: ResultsFile;
  revision: Revision;
  invocationId: string;
  prior: HistoryEntry[];
  historyWarnings: string[];
}): InvocationSnapshot {
  const { config, policy, file, revision, invocationId, prior } = input;
  const entries = toHistoryEntries(file, revision, invocationId);
  const baseBranch = baseBranchOf(config.baseRef);
  const comparisons = compareWithBase(entries, prior, {
    baseBranch,
    maxRegressionPp: policy.maxRegressionPp,
  });
  const countedComparisons = compareCounted(entries, prior, {
    baseBranch,
    maxCountedRisePp: policy.maxRegressionPp === null ? null : policy.maxCountedRisePp,
  });
  const historyFile = path.join(config.reportDir, HISTORY_FILE);
  return { ...input, entries, historyFile, baseBranch, comparisons, countedComparisons };
}

/** Reads this invocation's records, the configuration and the history once; null when no plugin ran and no matrix cell. */
export async function takeSnapshot(
  testModules: ReadonlyArray<TestModule>,
  importModule: ImportModule,
): Promise<InvocationSnapshot | null> {
  const results = aggregateResults(collectRecords(testModules));
  const matrix = collectMatrix(testModules);
  if (results.length === 0 && matrix.length === 0) return null;
  const config = loadEnvironment();
  const policy = await snapshotPolicy(config, importModule);
  const file = resultsFileSchema.parse({
    generatedAt: new Date().toISOString(),
    machine: describeMachine(),
    results,
    ...(matrix.length > 0 ? { matrix } : {}),
  });
  const historyFile = path.join(config.reportDir, HISTORY_FILE);
  const [revision, history] = await Promise.all([
    currentRevision(config.gitBranch),
    readHistory(historyFile),
  ]);
  return buildSnapshot({
    config,
    policy,
    file,
    revision,
    invocationId: randomUUID(),
    prior: history.entries,
    historyWarnings: history.warnings,
  });
}

/**
 * The configuration's top-level policy, read through Vitest's module runner (Node alone cannot import a .ts file
 * here). A configuration that cannot be read failed the suites already: the history then goes by the defaults,
 * with AUDITBENCH_MAX_REGRESSION_PP, and says so.
 */
async function snapshotPolicy(config: Environment, importModule: ImportModule): Promise<SnapshotPolicy> {
  const say = (line: string) => process.stdout.write(`auditbench: ${line}\n`);
  try {
    const policy = await loadPolicy(config, { importModule, say });
    return { ...policy.history, inconclusive: policyOn(config.workload, policy.run).inconclusive };
  } catch (error) {
    say(`the history goes by the default policy: ${error instanceof Error ? error.message : String(error)}`);
    return {
      ...defaultHistoryPolicy,
      maxRegressionPp: config.maxRegressionPp,
      inconclusive: policyOn(config.workload, defaultRunPolicy).inconclusive,
    };
  }
}
