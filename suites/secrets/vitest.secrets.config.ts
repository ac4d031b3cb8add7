import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';
import base from '../../vitest.config.ts';

// The project's own reporters on one short real session: what suites/secrets.suite.ts greps for the password.
export default defineConfig({
  root: fileURLToPath(new URL('../..', import.meta.url)),
  test: {
    reporters: base.test?.reporters,
    include: ['suites/secrets/*.fake.ts'],
    fileParallelism: false,
    testTimeout: 120_000,
    hookTimeout: 120_000,
  },
});
