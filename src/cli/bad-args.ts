import { type ParseArgsConfig, parseArgs } from 'node:util';
import type { CliContext } from './context.ts';
import { nearest } from './near-miss.ts';

/**
 * The CLI's one voice for bad input: `auditbench: <what>; see auditbench <command> --help`, one line, exit 2.
 * `command` is null at the top level.
 */
export function refuse(context: CliContext, command: string | null, what: string): 2 {
  context.stderr(`auditbench: ${what}; see auditbench ${command ? `${command} ` : ''}--help\n`);
  return 2;
}

type Options = NonNullable<ParseArgsConfig['options']>;

/** Node's parseArgs error, said in a line that names the flag or value and what to do. */
export function describeParseError(error: unknown, options: Options, positionalHint: string): string {
  const said = error instanceof Error ? error.message : String(error);
  const unknown = /^Unknown option '([^']+)'/.exec(said)?.[1];
  if (unknown !== undefined) {
    const guess = nearest(unknown.replace(/^--?/, ''), Object.keys(options));
    return `unknown option '${unknown}'${guess ? ` (did you mean --${guess}?)` : ''}`;
  }
  const positional = /^Unexpected argument '([^']*)'/.exec(said)?.[1];
  if (positional !== undefined) return `unexpected argument '${positional}'${positionalHint}`;
  const missing = /^Option '(-\w, )?(--[\w-]+) <value>' argument missing/.exec(said)?.[2];
  if (missing !== undefined) return `${missing} needs a value`;
  const noValue = /^Option '(-\w, )?(--[\w-]+)' does not take an argument/.exec(said)?.[2];
  if (noValue !== undefined) return `${noValue} takes no value`;
  return said.split('\n')[0]?.replace(/\.$/, '') ?? said;
}

/** The first option given an empty value, said in a line: `--base ''` would otherwise read as "not given". */
function emptyValue(values: Record<string, unknown>): string | null {
  for (const [name, value] of Object.entries(values)) {
    const given = Array.isArray(value) ? value : [value];
    if (given.includes('')) return `--${name} was given an empty value: give one, or leave --${name} out`;
  }
  return null;
}

/**
 * A subcommand's own options, parsed strictly: the values, or the line that refuses them. `positionalHint` follows
 * a stray argument's name (e.g. " (the base branch is --base <ref>)"); without `allowPositionals` every one is stray.
 */
export function parseOwnArgs<O extends Options>(
  argv: string[],
  options: O,
  { allowPositionals = false, positionalHint = ' (this command takes options only)' } = {},
):
  | {
      ok: true;
      values: ReturnType<typeof parseArgs<{ options: O; allowPositionals: true }>>['values'];
      positionals: string[];
    }
  | { ok: false; problem: string } {
  try {
    const { values, positionals } = parseArgs({ args: argv, options, strict: true, allowPositionals });
    const empty = emptyValue(values);
    return empty ? { ok: false, problem: empty } : { ok: true, values, positionals };
  } catch (error) {
    return { ok: false, problem: describeParseError(error, options, positionalHint) };
  }
}
