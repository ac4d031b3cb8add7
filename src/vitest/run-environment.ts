import { defaultBranchRef } from '../gate/repo.ts';

/**
 * What a run needs in its environment that the user need not set: the default branch the history check compares
 * with, found as the gate finds it (a repository on master has no runs on main). `auditbench bench` sets it from
 * where the user ran it (src/cli/vitest-run.ts); `npx vitest run` gets it here, from Vitest's root.
 */
export async function runEnvironment(
  env: Record<string, string | undefined>,
  root: string,
): Promise<Record<string, string>> {
  if (env.AUDITBENCH_DEFAULT_BASE_REF !== undefined || env.AUDITBENCH_BASE_REF) return {};
  const base = await defaultBranchRef(root);
  return base === null ? {} : { AUDITBENCH_DEFAULT_BASE_REF: base };
}
