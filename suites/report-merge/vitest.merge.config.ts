import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';
import base from '../../vitest.config.ts';

// The project's own reporters on two stand-in plugin suites: what suites/report-merge.suite.ts shards and merges.
export default defineConfig({
  root: fileURLToPath(new URL('../..', import.meta.url)),
  test: {
    reporters: base.test?.reporters,
    include: ['suites/report-merge/*.fake.ts'],
    fileParallelism: false,
  },
});
