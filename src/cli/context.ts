/** What every subcommand gets: where the user ran it, where this package is, and the streams to write to. */
export interface CliContext {
  /** Where the command runs: configuration, option files, reports and history paths are relative to it. */
  userDir: string;
  /** This package's directory (vitest.config.ts, suites/, scripts/), which Vitest runs in. */
  packageDir: string;
  /** The package's version, from its package.json. */
  version: string;
  env: Record<string, string | undefined>;
  stdout: (text: string) => void;
  stderr: (text: string) => void;
}

/** A subcommand module: `run` returns the exit code (0 ok, 1 failed, 2 bad input). */
export interface Command {
  /** One line for the global --help. */
  summary: string;
  /** The subcommand's own --help text. */
  usage: string;
  /**
   * The command's own argument checks and nothing else (no setup, no git, no server): the problem `run` would refuse
   * the arguments with, or null. `run` calls the same parser, so a doc's command line can be held to it.
   */
  check: (argv: string[]) => Promise<string | null>;
  run: (argv: string[], context: CliContext) => Promise<number>;
}
