import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';
import { auditbenchReporters } from '../../src/vitest/plugin.ts';

// The project's own reporters, as the plugin adds them to a run (src/vitest/plugin.ts), on one short real session:
// what suites/secrets.suite.ts greps for the password. The project is named as auditbench's own config names its
// benchmark project, whose tests the reporters report.
export default defineConfig({
  root: fileURLToPath(new URL('../..', import.meta.url)),
  test: {
    name: 'suites',
    reporters: ['default', ...auditbenchReporters('suites', process.env)],
    include: ['suites/secrets/*.fake.ts'],
    fileParallelism: false,
    testTimeout: 120_000,
    hookTimeout: 120_000,
  },
});
