import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { nearest } from './near-miss.ts';

/** The part of Vitest's bundled command-line parser (cac) the check uses. */
interface CacOption {
  names: string[];
}
interface CacCommand {
  options: CacOption[];
  checkUnknownOptions(): void;
  checkOptionValue(): void;
}
interface Cac {
  parse(argv: string[], options: { run: boolean }): unknown;
  matchedCommand?: CacCommand;
  globalCommand: CacCommand;
}

/**
 * Vitest's own parser, as its `vitest` binary builds it. `parseCLI` (vitest/node) parses but never refuses an
 * unknown option: the refusal runs only when the binary starts a command. The binary (dist/cli.js) names the chunk
 * that exports `createCLI`; null when that line is not found (another Vitest version), and the check is skipped.
 */
async function vitestParser(): Promise<(() => Cac) | null> {
  const dist = path.dirname(fileURLToPath(import.meta.resolve('vitest/node')));
  const cli = await readFile(path.join(dist, 'cli.js'), 'utf8').catch(() => '');
  const found = /import \{ (\w+) as createCLI \} from '(\.\/chunks\/[\w.-]+\.js)'/.exec(cli);
  if (!found?.[1] || !found[2]) return null;
  const chunk = (await import(pathToFileURL(path.join(dist, found[2])).href)) as Record<string, unknown>;
  const create = chunk[found[1]];
  return typeof create === 'function' ? (create as () => Cac) : null;
}

/** '--no-test-name' → 'testName': the key cac files an option under. */
const camelCased = (arg: string): string =>
  (arg.replace(/^--?(no-)?/, '').split('.')[0] ?? '').replace(/-([a-z])/g, (_, c: string) => c.toUpperCase());

/**
 * What is wrong with arguments meant for `vitest run`, as Vitest itself would refuse them (an unknown option, an
 * option missing its value), with the nearest option it knows; null when Vitest would take them. Vitest's own help
 * (`--help` among them) is left to Vitest.
 */
export async function vitestArgsProblem(args: string[]): Promise<string | null> {
  if (args.some((arg) => arg === '--help' || arg === '-h')) return null;
  const create = await vitestParser();
  if (!create) return null;
  const cli = create();
  cli.parse(['node', 'vitest', 'run', ...args], { run: false });
  const command = cli.matchedCommand;
  if (!command) return null;
  try {
    command.checkUnknownOptions();
    command.checkOptionValue();
    return null;
  } catch (error) {
    // cac: "Unknown option `--bogus`", "option `--shard <shards>` value is missing"
    const said = (error instanceof Error ? error.message : String(error)).replace(/`([^`]*)`/g, "'$1'");
    const unknown = /^Unknown option '--?([^']+)'/.exec(said)?.[1];
    if (unknown === undefined) {
      const missing = /^option '(-\w, )?(--[\w.-]+)[^']*' value is missing/.exec(said)?.[2];
      return missing ? `${missing} needs a value` : `Vitest refuses the arguments: ${said}`;
    }
    const known = [...cli.globalCommand.options, ...command.options].flatMap((o) => o.names);
    const guess = nearest(
      unknown,
      known.filter((name) => name.length > 1),
    );
    // cac names the option camelCased and without its value or a leading no-: say it as it was typed.
    const flag =
      args.find((arg) => camelCased(arg.split('=')[0] ?? '') === unknown) ??
      (unknown.length > 1 ? `--${unknown}` : `-${unknown}`);
    return `unknown option '${flag.split('=')[0]}'${guess ? ` (did you mean --${guess}?)` : ''}`;
  }
}
