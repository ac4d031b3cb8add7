// The names and values the Vitest plugin's `env` option may give (src/vitest/plugin-options.ts checks them; env.ts
// refuses a value that is not text once more before it sets one).

/**
 * The settings a user sets, as docs/settings.md lists them, and AUDITBENCH_PLUGINS_ONLY: the names the Vitest plugin's
 * `env` may give (the variables auditbench sets for its own processes are not among them).
 */
export const settingNames = [
  'AUDITBENCH_CONFIG',
  'AUDITBENCH_RUNS',
  'AUDITBENCH_WORKLOAD',
  'AUDITBENCH_REPORT_DIR',
  'AUDITBENCH_COUNTED',
  'AUDITBENCH_TARGET',
  'AUDITBENCH_MYSQLD',
  'AUDITBENCH_PLUGIN_DIR',
  'AUDITBENCH_IMAGES',
  'AUDITBENCH_MATRIX',
  'AUDITBENCH_SETTINGS_SWEEP',
  'AUDITBENCH_FAULTS',
  'AUDITBENCH_DOCKER',
  'AUDITBENCH_LARGE_POOL',
  'AUDITBENCH_DSN',
  'AUDITBENCH_RESTART_CMD',
  'AUDITBENCH_DSN_DISPOSABLE',
  'AUDITBENCH_MAX_REGRESSION_PP',
  'AUDITBENCH_GATE_INCONCLUSIVE',
  'AUDITBENCH_BASE_REF',
  'AUDITBENCH_GIT_BRANCH',
  'AUDITBENCH_DEBIAN_MIRROR',
  'AUDITBENCH_STUDY',
  'AUDITBENCH_HISTORY_TOKEN',
  'AUDITBENCH_PLUGINS_ONLY',
] as const;

/** Why a value given to the plugin's `env` is not one a variable can hold (undefined, a number, …), or null. */
export function envValueProblem(name: string, value: unknown): string | null {
  if (typeof value === 'string') return null;
  const shown =
    value === undefined ? 'undefined' : `${String(value)} (a ${value === null ? 'null' : typeof value})`;
  const example = typeof value === 'number' || typeof value === 'boolean' ? `'${String(value)}'` : 'a string';
  return `auditbench({ env }): ${name} is ${shown}, and an environment variable holds text: give ${example}, or leave ${name} out`;
}
