import path from 'node:path';
import type { Reporter, TestModule, TestSpecification } from 'vitest/node';
import { formatProgress, isBenchmark } from './format/format-progress.ts';

/** After each plugin suite file: how many are done, elapsed time, and an estimate of what is left. */
export default class ProgressReporter implements Reporter {
  private total = 0;
  private done = 0;
  private startedAt = 0;

  onTestRunStart(specifications: ReadonlyArray<TestSpecification>): void {
    this.total = specifications.filter((s) => isBenchmark(s.project.name)).length;
    this.done = 0;
    this.startedAt = Date.now();
  }

  onTestModuleEnd(module: TestModule): void {
    if (!isBenchmark(module.project.name) || this.total === 0) return;
    this.done++;
    const line = formatProgress({
      done: this.done,
      total: this.total,
      file: path.relative(process.cwd(), module.moduleId),
      fileMs: module.diagnostic().duration,
      elapsedMs: Date.now() - this.startedAt,
    });
    process.stdout.write(`${line}\n`);
  }
}
