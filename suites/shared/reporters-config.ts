import { fileURLToPath } from 'node:url';
import { defineConfig, type ViteUserConfig } from 'vitest/config';
import { auditbenchReporters } from '../../src/vitest/plugin.ts';

type TestOptions = NonNullable<ViteUserConfig['test']>;

/**
 * A Vitest config for stand-in files run under the project's own reporters, as the plugin adds them to a run
 * (src/vitest/plugin.ts): the project is named as auditbench's own config names its benchmark project, whose tests
 * the reporters report.
 */
export function withProjectReporters(test: TestOptions): ViteUserConfig {
  return defineConfig({
    root: fileURLToPath(new URL('../..', import.meta.url)),
    test: {
      name: 'suites',
      reporters: ['default', ...auditbenchReporters(['suites'], process.env)],
      fileParallelism: false,
      ...test,
    },
  });
}
