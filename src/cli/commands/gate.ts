import path from 'node:path';
import { execa } from 'execa';
import type { CliContext } from '../context.ts';

// A stub that runs today's gate (scripts/gate.ts) as `npm run gate` did; the gate's own module replaces it.
export const summary = 'run the suites and runs a change needs, against the base branch';

export const usage = `usage: auditbench gate [--list] [vitest args]

Selects the plugin suites and configured runs that changed since AUDITBENCH_BASE_REF (default origin/main)
and measures them.

  --list       print the selection and its reasons, measure nothing
  -h, --help   this text
`;

export async function run(argv: string[], context: CliContext): Promise<number> {
  if (argv.includes('--help') || argv.includes('-h')) {
    context.stdout(usage);
    return 0;
  }
  const script = path.join(context.packageDir, 'scripts', 'gate.ts');
  const result = await execa(process.execPath, ['--import', 'tsx', script, ...argv], {
    cwd: context.packageDir,
    env: context.env,
    extendEnv: false,
    stdio: 'inherit',
    reject: false,
  });
  return result.exitCode ?? 1;
}
