import path from 'node:path';
import type { UserConsoleLog } from 'vitest';
import type { Reporter, TestModule, TestSpecification, Vitest } from 'vitest/node';
import { type Clock, realClock } from '../src/machine/clock.ts';
import { formatProgress, isBenchmark } from './format/format-progress.ts';

/**
 * While the run goes: the benchmark files' own lines as they come, one per step, without the `stdout | file > test`
 * header Vitest's default reporter puts before each block (the plugin's onConsoleLog keeps them from it; every harness
 * line carries its own `[run · server · workload]` prefix, so nothing is lost); after each benchmark file, how many
 * are done, elapsed time, and an estimate of what is left.
 */
export default class ProgressReporter implements Reporter {
  /** The projects it counts (auditbench's, in a DBA's Vitest); every project but the unit tests when absent. */
  private readonly counts: (projectName: string) => boolean;
  private total = 0;
  private done = 0;
  private startedAt = 0;
  private vitest: Vitest | undefined;
  private readonly clock: Clock;

  onInit(vitest: Vitest): void {
    this.vitest = vitest;
  }

  constructor(options: { projects?: string[]; clock?: Clock } = {}) {
    const { projects, clock = realClock } = options;
    this.clock = clock;
    this.counts = projects ? (name) => projects.includes(name) : isBenchmark;
  }

  onTestRunStart(specifications: ReadonlyArray<TestSpecification>): void {
    this.total = specifications.filter((s) => this.counts(s.project.name)).length;
    this.done = 0;
    this.startedAt = this.clock.nowMs();
  }

  onUserConsoleLog(log: UserConsoleLog): void {
    const entity = log.taskId ? this.vitest?.state.getReportedEntityById(log.taskId) : undefined;
    if (!entity || !this.counts(entity.project.name)) return;
    (log.type === 'stderr' ? process.stderr : process.stdout).write(log.content);
  }

  onTestModuleEnd(module: TestModule): void {
    if (!this.counts(module.project.name) || this.total === 0) return;
    this.done++;
    const line = formatProgress({
      done: this.done,
      total: this.total,
      file: path.relative(process.cwd(), module.moduleId),
      fileMs: module.diagnostic().duration,
      elapsedMs: this.clock.nowMs() - this.startedAt,
    });
    process.stdout.write(`${line}\n`);
  }
}
