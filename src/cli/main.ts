// auditbench's command line: `auditbench <subcommand> [options]`, run by the `auditbench` file at the package root.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import * as bench from './commands/bench.ts';
import * as gate from './commands/gate.ts';
import * as list from './commands/list.ts';
import * as matrix from './commands/matrix.ts';
import * as test from './commands/test.ts';
import type { CliContext, Command } from './context.ts';

const commands: Record<string, Command> = { bench, test, gate, matrix, list };

export function globalUsage(): string {
  const width = Math.max(...Object.keys(commands).map((name) => name.length));
  const lines = Object.entries(commands).map(([name, c]) => `  ${name.padEnd(width)}  ${c.summary}`);
  return `usage: auditbench <command> [options]

Tells whether a MySQL/MariaDB audit plugin, with your configuration, is safe in production.

Commands:
${lines.join('\n')}

Options:
  -h, --help     this text (auditbench <command> --help: that command's)
  -v, --version  auditbench's version

Paths (AUDITBENCH_CONFIG, default ./auditbench.config.ts; AUDITBENCH_REPORT_DIR, default ./reports) are
relative to where you run the command.
`;
}

const message = (error: unknown): string => (error instanceof Error ? error.message : String(error));

/** Runs one command line; the exit code: 0 ok, 1 a check failed, 2 bad input. */
export async function main(argv: string[], context: CliContext): Promise<number> {
  const at = argv.findIndex((arg) => !arg.startsWith('-'));
  let values: { help?: boolean; version?: boolean };
  try {
    ({ values } = parseArgs({
      args: at === -1 ? argv : argv.slice(0, at),
      options: { help: { type: 'boolean', short: 'h' }, version: { type: 'boolean', short: 'v' } },
    }));
  } catch (error) {
    context.stderr(`auditbench: ${message(error)}; see auditbench --help\n`);
    return 2;
  }
  if (values.version) {
    context.stdout(`${context.version}\n`);
    return 0;
  }
  if (values.help || argv[at] === 'help') {
    const topic = values.help ? undefined : argv[at + 1];
    const command = topic !== undefined && Object.hasOwn(commands, topic) ? commands[topic] : undefined;
    context.stdout(command?.usage ?? globalUsage());
    return 0;
  }
  const name = argv[at];
  if (name === undefined) {
    context.stderr(globalUsage());
    return 2;
  }
  const command = Object.hasOwn(commands, name) ? commands[name] : undefined;
  if (!command) {
    const known = Object.keys(commands).join(', ');
    context.stderr(`auditbench: unknown command '${name}'; use one of ${known}\n\n${globalUsage()}`);
    return 2;
  }
  return command.run(argv.slice(at + 1), context);
}

function processContext(): CliContext {
  const packageDir = fileURLToPath(new URL('../..', import.meta.url));
  const manifest = JSON.parse(readFileSync(path.join(packageDir, 'package.json'), 'utf8')) as {
    version: string;
  };
  const { AUDITBENCH_USER_DIR, ...env } = process.env;
  return {
    // The `auditbench` file changes into the package directory and says where the user ran it.
    userDir: AUDITBENCH_USER_DIR || process.cwd(),
    packageDir,
    version: manifest.version,
    env,
    stdout: (text) => process.stdout.write(text),
    stderr: (text) => process.stderr.write(text),
  };
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  main(process.argv.slice(2), processContext()).then(
    (code) => {
      process.exitCode = code;
    },
    (error: unknown) => {
      process.stderr.write(`auditbench: ${message(error)}\n`);
      process.exitCode = 2;
    },
  );
}
