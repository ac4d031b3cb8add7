import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { type JUnitOptions, JUnitReporter, type Reporter, type TestModule, type Vitest } from 'vitest/node';
import { refuseLinks } from '../src/results/safe-path.ts';
import { endedModules } from './ended-modules.ts';
import { type InvocationSnapshot, takeSnapshot } from './invocation-snapshot.ts';
import { closingLines } from './writers/closing-line.ts';
import { historyWriter } from './writers/history.ts';
import { historyCheckWriter } from './writers/history-check.ts';
import { htmlReportWriter } from './writers/html-report.ts';
import { markdownSummaryWriter } from './writers/markdown-summary.ts';
import { resultsJsonWriter } from './writers/results-json.ts';
import { terminalSummaryWriter } from './writers/terminal-summary.ts';
import type { ReportWriter } from './writers/writer.ts';

/** The end-of-invocation outputs, in the order they print; the history is read (in the snapshot) before one appends to it. */
export const WRITERS: readonly ReportWriter[] = [
  resultsJsonWriter,
  historyWriter,
  terminalSummaryWriter,
  markdownSummaryWriter,
  htmlReportWriter,
  historyCheckWriter,
];

export interface AuditbenchReporterOptions {
  /** Options of Vitest's own JUnit reporter, which this one runs so that its line comes before the closing line. */
  junit?: JUnitOptions;
  /** The projects whose tests it reports (auditbench's, in a DBA's Vitest); every project when absent. */
  projects?: string[];
}

/**
 * Calls each writer in turn. One that fails prints one line and sets exit code 1, and the next still runs: an
 * invocation whose report is missing must not look green, nor lose its other reports.
 */
export async function runWriters(
  writers: readonly ReportWriter[],
  snapshot: InvocationSnapshot,
): Promise<void> {
  for (const writer of writers) {
    try {
      await writer.write(snapshot);
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      process.stderr.write(`auditbench: could not ${writer.what}: ${message}\n`);
      process.exitCode = 1;
    }
  }
}

/**
 * auditbench's reporter: builds the invocation's snapshot (records, configuration, history) once, then calls each writer
 * in order, and ends with the closing line. A writer sets `process.exitCode` itself (the gate), after Vitest set its
 * own in the run.
 */
export default class AuditbenchReporter implements Reporter {
  private junit: JUnitReporter | null;
  /** Every module Vitest reported ended, in order: under --merge-reports, one per shard's blob of a file. */
  private ended: TestModule[] = [];
  private vitest: Vitest | null = null;
  private readonly projects: string[] | null;
  private readonly junitFile: string | null;

  constructor(options: AuditbenchReporterOptions = {}) {
    this.junit = options.junit ? new JUnitReporter(options.junit) : null;
    this.junitFile = options.junit?.outputFile ?? null;
    this.projects = options.projects ?? null;
  }

  private ours(module: TestModule): boolean {
    return this.projects === null || this.projects.includes(module.project.name);
  }

  async onInit(vitest: Vitest): Promise<void> {
    this.vitest = vitest;
    // JUnit opens its file for writing here: never through a symbolic link (the plugin refused one already).
    const outputFile = this.junitFile;
    if (outputFile) {
      await refuseLinks(path.resolve(vitest.config.root, outputFile)).catch((error: Error) => {
        process.stderr.write(`auditbench: could not write junit.xml: ${error.message}\n`);
        process.exitCode = 1;
        this.junit = null;
      });
    }
    await this.junit?.onInit(vitest);
  }

  onTestRunStart(): void {
    this.ended = [];
  }

  onTestModuleEnd(module: TestModule): void {
    if (this.ours(module)) this.ended.push(module);
  }

  async onTestRunEnd(fromVitest: ReadonlyArray<TestModule>): Promise<void> {
    const testModules = endedModules(
      fromVitest.filter((module) => this.ours(module)),
      this.ended,
    );
    const junit = this.junit?.onTestRunEnd(testModules);
    const vitest = this.vitest;
    const importModule = (file: string) =>
      vitest ? vitest.import<{ default?: unknown }>(file) : import(pathToFileURL(file).href);
    const snapshot = await takeSnapshot(testModules, importModule).catch((error: unknown) => {
      const message = error instanceof Error ? error.message : String(error);
      process.stderr.write(`auditbench: could not read this invocation's results: ${message}\n`);
      process.exitCode = 1;
      return null;
    });
    if (snapshot) await runWriters(WRITERS, snapshot);
    await junit?.catch((error: unknown) => {
      process.stderr.write(
        `auditbench: could not write junit.xml: ${error instanceof Error ? error.message : error}\n`,
      );
      process.exitCode = 1;
    });
    process.stdout.write(closingLines(testModules));
  }
}
