import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';
import { benchmarkLinesAreOurs } from './reporters/progress-reporter.ts';

// Every setting is checked before Vitest creates anything (its JUnit reporter opens junit.xml at start): one line and
// exit 2 on a bad one. Binaries and the configuration's runs are checked when a project that starts servers may run.
function preflight(argv: string[]): void {
  const projects = argv.flatMap((arg, i) =>
    arg === '--project' ? [argv[i + 1] ?? ''] : arg.startsWith('--project=') ? [arg.slice(10)] : [],
  );
  // Merging shards' reports (auditbench matrix --merge-reports) starts nothing.
  const merging = argv.some((arg) => arg.startsWith('--merge-reports'));
  const servers = !merging && (projects.length === 0 || projects.some((name) => name !== 'unit'));
  const script = fileURLToPath(new URL('./scripts/preflight.ts', import.meta.url));
  const check = spawnSync(process.execPath, ['--import', 'tsx', script, ...(servers ? ['--servers'] : [])], {
    stdio: 'inherit',
  });
  if (check.status !== 0) process.exit(check.status ?? 2);
}
preflight(process.argv);

export default defineConfig({
  test: {
    // A benchmark file's lines go out as they are, without a Vitest header before each block (progress-reporter.ts).
    onConsoleLog: benchmarkLinesAreOurs,
    reporters: [
      'default',
      // Annotations on failed tests; Vitest adds it by itself only when no reporters are configured.
      ...(process.env.GITHUB_ACTIONS === 'true' ? ['github-actions'] : []),
      // While the run goes: the benchmark files' lines, and a line after each file (no end-of-run work, so not one of the writers).
      './reporters/progress-reporter.ts',
      // At the end: results.json, the history, the terminal summary, summary.md, index.html, the gate, then the
      // closing line; it runs Vitest's own JUnit reporter so that its line comes first. The report dir defaults as in
      // src/config; read here because loadEnvironment would also validate server settings a unit-only run does not need.
      [
        './reporters/auditbench-reporter.ts',
        { junit: { outputFile: `${process.env.AUDITBENCH_REPORT_DIR ?? 'reports'}/junit.xml` } },
      ],
    ],
    projects: [
      {
        test: {
          name: 'unit',
          // Unit tests finish before any measurement starts, so they never share the CPUs with one.
          sequence: { groupOrder: 0 },
          include: [
            'src/**/*.test.ts',
            'reporters/**/*.test.ts',
            'fixtures/**/*.test.ts',
            'scripts/**/*.test.ts',
            'test/**/*.test.ts',
          ],
          environment: 'node',
        },
      },
      {
        test: {
          name: 'suites',
          globalSetup: ['./suites/shared/check-config.ts', './suites/shared/pack-dir.ts'],
          // Installed in another project, auditbench's TypeScript and the user's config import it from node_modules,
          // which Vitest would otherwise hand to Node untransformed.
          server: { deps: { inline: ['auditbench'] } },
          include: ['suites/**/*.suite.ts'],
          // `./auditbench bench` names suites/runs.suite.ts (the configured runs only); `test` runs them all.
          exclude: ['suites/precision/**'],
          environment: 'node',
          // Benchmarks must never overlap: one file at a time, tests in order, no retry hiding a regression.
          fileParallelism: false,
          sequence: { concurrent: false, groupOrder: 1 },
          retry: 0,
          testTimeout: 60 * 60_000,
          hookTimeout: 10 * 60_000,
        },
      },
      // Minutes to hours of measuring: only when asked for (npm run bench:precision).
      ...(process.env.AUDITBENCH_STUDY !== undefined
        ? [
            {
              test: {
                name: 'precision',
                sequence: { groupOrder: 2 },
                include: ['suites/precision/**/*.suite.ts'],
                environment: 'node',
                globalSetup: ['./suites/shared/check-config.ts'],
                fileParallelism: false,
                retry: 0,
                testTimeout: 6 * 60 * 60_000,
                hookTimeout: 10 * 60_000,
              },
            },
          ]
        : []),
    ],
  },
});
