import { execa } from 'execa';
import type { Revision } from './entry.ts';

async function git(args: string[]): Promise<string | null> {
  const result = await execa('git', args, { reject: false });
  return result.exitCode === 0 ? result.stdout.trim() : null;
}

/**
 * The commit and branch this invocation measured. CI checks out a detached merge commit, so the branch comes from config
 * (AUDITBENCH_GIT_BRANCH, or GitHub's GITHUB_HEAD_REF / GITHUB_REF_NAME) when set; outside git both are 'unknown'.
 */
export async function currentRevision(branchFromConfig: string | null): Promise<Revision> {
  const commit = (await git(['rev-parse', 'HEAD'])) ?? 'unknown';
  const branch = branchFromConfig ?? (await git(['rev-parse', '--abbrev-ref', 'HEAD'])) ?? 'unknown';
  return { commit, branch: branch === 'HEAD' ? 'detached' : branch };
}
