import { auditbench } from 'auditbench/vitest';
import { defineConfig } from 'vitest/config';

// Your own Vitest, with auditbench's project added: `npx vitest run` measures every run of auditbench.config.ts (as
// `npx auditbench bench` does) and runs audit/**/*.test.ts against a server running a run's configuration.
export default defineConfig({
  plugins: [auditbench()],
});
