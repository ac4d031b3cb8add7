import { isDeepStrictEqual } from 'node:util';
import type { Json, LifecycleCheck } from '../../results/lifecycle-check.ts';
import { SqlError } from '../../servers/sql-session.ts';
import type { StartedServer } from '../../servers/started-server.ts';
import type { PluginProfile } from '../profile.ts';

/** What the checks of one lifecycle share: the server, the profile, a marker unique to this run, the defaults. */
export interface LifecycleContext {
  server: StartedServer;
  profile: PluginProfile;
  /** Put in every statement a check looks for, so lines from other runs or checks never match. */
  marker: string;
  /** The plugin's variables right after install, filled by the install check. */
  defaults: Record<string, string>;
}

export interface LifecycleStep {
  id: string;
  title: string;
  run(context: LifecycleContext): Promise<LifecycleCheck>;
}

export function check(name: string, expected: Json, observed: Json, details?: Json): LifecycleCheck {
  return {
    check: name,
    expected,
    observed,
    ok: isDeepStrictEqual(expected, observed),
    ...(details === undefined ? {} : { details }),
  };
}

/** Runs a statement that is meant to fail and returns the server's errno. */
export async function failingQuery(server: StartedServer, sql: string): Promise<number> {
  try {
    await server.query(sql);
  } catch (error) {
    if (error instanceof SqlError) return error.errno;
    throw error;
  }
  throw new Error(`Expected the server to refuse '${sql}', but it succeeded`);
}

export const toJson = (value: unknown): Json => JSON.parse(JSON.stringify(value ?? null)) as Json;
