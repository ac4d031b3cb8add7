import path from 'node:path';
import type { CliContext } from './context.ts';

// Settings that name a file or folder of the user's: relative to where the command runs, not to this package's
// directory, which Vitest runs in.
const pathSettings = ['AUDITBENCH_CONFIG', 'AUDITBENCH_REPORT_DIR', 'AUDITBENCH_PLUGIN_DIR'];

const defaults: Record<string, string> = {
  AUDITBENCH_CONFIG: 'auditbench.config.ts',
  AUDITBENCH_REPORT_DIR: 'reports',
};

/** The environment with every path setting made absolute against the user's directory, defaults included. */
export function userEnv(context: CliContext): Record<string, string | undefined> {
  const env = { ...context.env };
  for (const name of pathSettings) {
    const given = env[name]?.trim() ? env[name] : defaults[name];
    if (given !== undefined) env[name] = path.resolve(context.userDir, given);
  }
  // A server binary named by path is the user's; a bare name is searched on PATH.
  const mysqld = env.AUDITBENCH_MYSQLD;
  if (mysqld?.includes('/')) env.AUDITBENCH_MYSQLD = path.resolve(context.userDir, mysqld);
  return env;
}
