import path from 'node:path';
import type { UserConsoleLog } from 'vitest';
import type { Reporter, TestCase, TestModule, TestSpecification, TestSuite, Vitest } from 'vitest/node';
import { formatProgress, isBenchmark } from './format/format-progress.ts';

type Entity = TestModule | TestCase | TestSuite | undefined;

/**
 * The root `onConsoleLog`: a benchmark file's lines are this reporter's to print, so Vitest's default reporter skips
 * them (it would put a `stdout | file > describe > test` header before each block). Every harness line carries its
 * own `[run · server · workload]` prefix, so nothing is lost; a unit test's logs keep Vitest's headers.
 */
export function benchmarkLinesAreOurs(
  _log: string,
  _type: 'stdout' | 'stderr',
  entity: Entity,
): false | undefined {
  return entity && isBenchmark(entity.project.name) ? false : undefined;
}

/**
 * While the run goes: the benchmark files' own lines as they come, one per step, without Vitest's headers; after each
 * plugin suite file, how many are done, elapsed time, and an estimate of what is left.
 */
export default class ProgressReporter implements Reporter {
  private total = 0;
  private done = 0;
  private startedAt = 0;
  private vitest: Vitest | undefined;

  onInit(vitest: Vitest): void {
    this.vitest = vitest;
  }

  onTestRunStart(specifications: ReadonlyArray<TestSpecification>): void {
    this.total = specifications.filter((s) => isBenchmark(s.project.name)).length;
    this.done = 0;
    this.startedAt = Date.now();
  }

  onUserConsoleLog(log: UserConsoleLog): void {
    const entity = log.taskId ? this.vitest?.state.getReportedEntityById(log.taskId) : undefined;
    if (!entity || !isBenchmark(entity.project.name)) return;
    (log.type === 'stderr' ? process.stderr : process.stdout).write(log.content);
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
