import { defineConfig } from 'vitest/config';
import { auditbench } from './src/vitest/plugin.ts';

// The same plugin a DBA adds to their own vitest.config.ts (src/vitest/plugin.ts): it checks every setting before
// Vitest creates anything (one line, exit 2), adds the benchmark project ('suites' here: every file of suites/) and the
// reporters. `auditbench bench` runs this file with `--project suites suites/runs.suite.ts`; `test` runs every project.
export default defineConfig({
  plugins: [
    auditbench({
      name: 'suites',
      include: ['suites/**/*.suite.ts'],
      // `./auditbench bench` names suites/runs.suite.ts (the configured runs only); `test` runs them all.
      exclude: ['suites/precision/**'],
      // The suites that measure nothing run three at a time, before the ones that measure (project 'suites-parallel'):
      // completeness counts markers, which another suite beside it leaves as they are. Not the counted suite: its
      // thread-pool count takes the whole process, and beside other suites its interval widened (2026-12-08).
      parallel: [
        'suites/beside-production.suite.ts',
        'suites/completeness.suite.ts',
        'suites/container-target.suite.ts',
        'suites/external-target.suite.ts',
        'suites/faults.suite.ts',
        'suites/log-destinations.suite.ts',
        'suites/log-evidence.suite.ts',
        'suites/report-merge.suite.ts',
        'suites/secrets.suite.ts',
        'suites/server-target.suite.ts',
        'suites/settings-sweep.suite.ts',
        'suites/stale-sweep.suite.ts',
        'suites/syslog-canary.suite.ts',
      ],
      globalSetup: ['./suites/shared/pack-dir.ts'],
      // `bench` and `test` set the workload and the example sweep themselves.
      env: {},
      serverProjects: ['precision'],
    }),
  ],
  test: {
    reporters: [
      'default',
      // Annotations on failed tests; Vitest adds it by itself only when no reporters are configured.
      ...(process.env.GITHUB_ACTIONS === 'true' ? ['github-actions'] : []),
    ],
    projects: [
      {
        test: {
          name: 'unit',
          // Unit tests finish before any measurement starts, so they never share the CPUs with one.
          sequence: { groupOrder: 0 },
          include: [
            'src/**/*.test.ts',
            // Plain JavaScript, as a DBA's files are once Vitest strips their types (the matchers' run-time checks).
            'src/**/*.test.mjs',
            'reporters/**/*.test.ts',
            'fixtures/**/*.test.ts',
            'scripts/**/*.test.ts',
            'test/**/*.test.ts',
          ],
          environment: 'node',
          // One module graph per worker process, shared by the files it runs (2 min 57 s → 1 min 19 s here, 204
          // files). Forks, not threads: a test's process-wide state (the run lock, signal handlers) stays its worker's.
          pool: 'forks',
          isolate: false,
          // Every core (Vitest 4.1's default left one free): 1 min 19 s → about 1 min on this machine's two. The one
          // real-clock tolerance a busy core made a test miss, the toggled run's switch within 20 ms, is timed on fake
          // timers now (toggled-run.test.ts).
          maxWorkers: '100%',
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
