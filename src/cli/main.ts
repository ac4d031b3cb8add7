// auditbench's command line: `auditbench <subcommand> [options]`, run by the `auditbench` file at the package root.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { parseOwnArgs, refuse } from './bad-args.ts';
import * as bench from './commands/bench.ts';
import * as gate from './commands/gate.ts';
import * as list from './commands/list.ts';
import * as matrix from './commands/matrix.ts';
import * as test from './commands/test.ts';
import type { CliContext, Command } from './context.ts';
import { nearest } from './near-miss.ts';

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

const commandNames = Object.keys(commands);

/** 'bnech' → "unknown command 'bnech' (did you mean bench?)"; otherwise the commands there are. */
function unknownCommand(kind: string, name: string): string {
  const guess = nearest(name, commandNames);
  return guess
    ? `${kind} '${name}' (did you mean ${guess}?)`
    : `${kind} '${name}', not one of ${commandNames.join(', ')}`;
}

/** Runs one command line; the exit code: 0 ok, 1 a check failed, 2 bad input. */
export async function main(argv: string[], context: CliContext): Promise<number> {
  const at = argv.findIndex((arg) => !arg.startsWith('-'));
  const globalOptions = {
    help: { type: 'boolean', short: 'h' },
    version: { type: 'boolean', short: 'v' },
  } as const;
  const parsed = parseOwnArgs(at === -1 ? argv : argv.slice(0, at), globalOptions);
  if (!parsed.ok) return refuse(context, null, parsed.problem);
  const { values } = parsed;
  if (values.version) {
    context.stdout(`${context.version}\n`);
    return 0;
  }
  if (values.help || argv[at] === 'help') {
    const [topic, ...more] = values.help ? [] : argv.slice(at + 1);
    if (more.length > 0)
      return refuse(context, null, `help takes one command, got '${more.join(' ')}' after '${topic}'`);
    if (topic === undefined) {
      context.stdout(globalUsage());
      return 0;
    }
    const command = Object.hasOwn(commands, topic) ? commands[topic] : undefined;
    if (!command) return refuse(context, null, `help: ${unknownCommand('no command', topic)}`);
    context.stdout(command.usage);
    return 0;
  }
  const name = argv[at];
  if (name === undefined) {
    context.stderr(globalUsage());
    return 2;
  }
  const command = Object.hasOwn(commands, name) ? commands[name] : undefined;
  if (!command) return refuse(context, null, unknownCommand('unknown command', name));
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
