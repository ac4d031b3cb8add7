import path from 'node:path';
import { execa } from 'execa';
import type { PluginResult } from '../results/schema.ts';

// Commits come from history lines, paths from results: outside text. A commit must be hex; each path goes to git as a
// literal pathspec after `--`, inside the repository only, so neither can read as an option or a glob.
const COMMIT = /^[0-9a-f]{7,64}$/;

/** The files a run reads in the DBA's repository: the configuration, each run's option file and traffic script. */
export function filesRunsRead(configPath: string, results: readonly PluginResult[]): string[] {
  const files = [configPath];
  for (const r of results) {
    if (r.settings?.optionFile) files.push(r.settings.optionFile);
    if (r.traffic?.script?.path) files.push(r.traffic.script.path);
  }
  return [...new Set(files.map((f) => path.resolve(path.dirname(configPath), f)))];
}

/**
 * `git log --oneline <lastGood>..<firstBad> -- <files>` in the repository that holds `files[0]`: the commits between
 * the two that touched what the runs read. Lines, or a reason why there are none (a commit this clone lacks: a
 * shallow checkout; a file outside the repository is left out).
 */
export async function culpritLog(
  lastGood: string,
  firstBad: string,
  files: readonly string[],
): Promise<{ lines: string[]; files: string[] } | { reason: string }> {
  if (!COMMIT.test(lastGood) || !COMMIT.test(firstBad))
    return { reason: `not commits: '${lastGood.slice(0, 40)}', '${firstBad.slice(0, 40)}'` };
  const first = files[0];
  if (first === undefined) return { reason: 'no file to follow' };
  const cwd = path.dirname(first);
  const top = await execa('git', ['rev-parse', '--show-toplevel'], { cwd, reject: false });
  if (top.exitCode !== 0) return { reason: `${cwd} is not in a git repository` };
  const root = top.stdout.trim();
  const inside = files
    .map((f) => path.relative(root, f))
    .filter((rel) => rel !== '' && !rel.startsWith('..') && !path.isAbsolute(rel));
  const log = await execa(
    'git',
    [
      'log',
      '--oneline',
      '--no-decorate',
      `${lastGood}..${firstBad}`,
      '--',
      ...inside.map((f) => `:(literal)${f}`),
    ],
    { cwd: root, reject: false },
  );
  if (log.exitCode !== 0) return { reason: `git log failed: ${log.stderr.trim().split('\n')[0] ?? ''}` };
  return { lines: log.stdout.split('\n').filter((l) => l !== ''), files: inside };
}
