// auditbench's command line: `auditbench <subcommand> [options]`, run by the `auditbench` file at the package root.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { launchEnvironment } from '../config/env.ts';
import { parseOwnArgs, refuse } from './bad-args.ts';
import * as action from './commands/action.ts';
import * as bench from './commands/bench.ts';
import * as gate from './commands/gate.ts';
import * as history from './commands/history.ts';
import * as list from './commands/list.ts';
import * as matrix from './commands/matrix.ts';
import * as test from './commands/test.ts';
import type { CliContext, Command } from './context.ts';
import { nearest } from './near-miss.ts';

/** Every command, by the name it is called with; the docs' CLI reference and help texts are held to these. */
export const commands: Record<string, Command> = { bench, test, gate, matrix, list, history, action };

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

/** What a command line asks for, decided by the top-level parser alone: nothing is run. */
type TopLevel =
  | { kind: 'version' }
  | { kind: 'usage'; text: string | null }
  | { kind: 'no command' }
  | { kind: 'refuse'; problem: string }
  | { kind: 'command'; command: Command; argv: string[] };

function parseTopLevel(argv: string[]): TopLevel {
  const at = argv.findIndex((arg) => !arg.startsWith('-'));
  const globalOptions = {
    help: { type: 'boolean', short: 'h' },
    version: { type: 'boolean', short: 'v' },
  } as const;
  const parsed = parseOwnArgs(at === -1 ? argv : argv.slice(0, at), globalOptions);
  if (!parsed.ok) return { kind: 'refuse', problem: parsed.problem };
  const { values } = parsed;
  if (values.version) return { kind: 'version' };
  if (values.help || argv[at] === 'help') {
    const [topic, ...more] = values.help ? [] : argv.slice(at + 1);
    if (more.length > 0)
      return { kind: 'refuse', problem: `help takes one command, got '${more.join(' ')}' after '${topic}'` };
    if (topic === undefined) return { kind: 'usage', text: null };
    const command = Object.hasOwn(commands, topic) ? commands[topic] : undefined;
    if (!command) return { kind: 'refuse', problem: `help: ${unknownCommand('no command', topic)}` };
    return { kind: 'usage', text: command.usage };
  }
  const name = argv[at];
  if (name === undefined) return { kind: 'no command' };
  const command = Object.hasOwn(commands, name) ? commands[name] : undefined;
  if (!command) return { kind: 'refuse', problem: unknownCommand('unknown command', name) };
  return { kind: 'command', command, argv: argv.slice(at + 1) };
}

/**
 * The refusal `main` would print for these arguments (after `auditbench`), from the parsers alone: no setup, git,
 * server or Vitest. Null when the command line gets past every argument check. The docs' command lines are held to it.
 */
export async function commandLineProblem(argv: string[]): Promise<string | null> {
  const top = parseTopLevel(argv);
  if (top.kind === 'refuse') return top.problem;
  if (top.kind === 'no command') return 'no command given';
  if (top.kind === 'command') return top.command.check(top.argv);
  return null;
}

/** Runs one command line; the exit code: 0 ok, 1 a check failed, 2 bad input. */
export async function main(argv: string[], context: CliContext): Promise<number> {
  const top = parseTopLevel(argv);
  switch (top.kind) {
    case 'refuse':
      return refuse(context, null, top.problem);
    case 'version':
      context.stdout(`${context.version}\n`);
      return 0;
    case 'usage':
      context.stdout(top.text ?? globalUsage());
      return 0;
    case 'no command':
      context.stderr(globalUsage());
      return 2;
    case 'command':
      return top.command.run(top.argv, context);
  }
}

function processContext(): CliContext {
  const packageDir = fileURLToPath(new URL('../..', import.meta.url));
  const manifest = JSON.parse(readFileSync(path.join(packageDir, 'package.json'), 'utf8')) as {
    version: string;
  };
  const { userDir, env } = launchEnvironment();
  return {
    // The `auditbench` file changes into the package directory and says where the user ran it.
    userDir: userDir ?? process.cwd(),
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
