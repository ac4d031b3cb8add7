import { lstat, mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { linkOnPath } from '../../results/safe-path.ts';
import { parseOwnArgs, refuse } from '../bad-args.ts';
import type { CliContext } from '../context.ts';

export const summary = "writes auditbench's GitHub Action into your repository, at this package's version";

/** Where the Action goes in the DBA's repository: a local action, `uses: ./.github/actions/auditbench`. */
export const ACTION_DIR = path.join('.github', 'actions', 'auditbench');

export const usage = `usage: auditbench action [--update]

Writes auditbench's GitHub Action (action.yml and its step scripts) into ${ACTION_DIR}/ of the repository you
run it in, with this package's version, for workflows to use as \`uses: ./${ACTION_DIR}\` after actions/checkout.
Commit the folder. The Action's measuring step refuses to run when the repository installs another auditbench
version than the one it was written from: after upgrading auditbench, run this again with --update.

  --update    replace the folder a previous \`auditbench action\` wrote
  -h, --help  this text
`;

const options = { update: { type: 'boolean' }, help: { type: 'boolean', short: 'h' } } as const;

/** The package's files the Action is made of, relative to the package and to the written folder alike. */
const ACTION_FILES = ['action.yml', 'action/setup.sh', 'action/measure.sh', 'action/publish-summary.sh'];

export async function check(argv: string[]): Promise<string | null> {
  const parsed = parseOwnArgs(argv, options);
  return parsed.ok ? null : parsed.problem;
}

export async function run(argv: string[], context: CliContext): Promise<number> {
  const parsed = parseOwnArgs(argv, options);
  if (!parsed.ok) return refuse(context, 'action', parsed.problem);
  if (parsed.values.help) {
    context.stdout(usage);
    return 0;
  }
  const target = path.join(context.userDir, ACTION_DIR);
  const link = await linkOnPath(context.userDir, target);
  if (link)
    return refuse(
      context,
      'action',
      `${link} is a symbolic link: the Action is written into real folders only`,
    );
  const exists = (await lstat(target).catch(() => null)) !== null;
  if (exists && !parsed.values.update)
    return refuse(
      context,
      'action',
      `${target} exists: run with --update to replace it with version ${context.version}`,
    );
  await rm(target, { recursive: true, force: true });
  await mkdir(path.join(target, 'action'), { recursive: true });
  for (const file of ACTION_FILES) {
    const text = await readFile(path.join(context.packageDir, file));
    await writeFile(path.join(target, file), text, { mode: file.endsWith('.sh') ? 0o755 : 0o644 });
  }
  // The measuring step compares this version with the repository's installed auditbench (action/measure.sh).
  const pkg = { name: 'auditbench-action', private: true, version: context.version };
  await writeFile(path.join(target, 'package.json'), `${JSON.stringify(pkg, null, 2)}\n`);
  context.stdout(
    `auditbench action: wrote auditbench ${context.version}'s Action to ${target}; commit it, and use it in a workflow as\n  - uses: ./${ACTION_DIR.split(path.sep).join('/')}\n`,
  );
  return 0;
}
