import { type Claims, type EventKind, eventKinds } from '../plugins/completeness-claims.ts';
import type { CompletenessSetup, PluginProfile } from '../plugins/profile.ts';
import { connectUser, failedLoginUser, statementUser } from './markers.ts';

/**
 * file_logger (mysys/file_logger.c), shared by server_audit and sql_errlog, writes each record with one write() under
 * a mutex, no user-space buffer and no fsync: a killed server loses nothing it wrote, a crashed machine may. Their
 * profiles quote it in their durability notes.
 */
export const FILE_LOGGER_DURABILITY =
  'one write() per record, no buffer, no fsync (mysys/file_logger.c): a SIGKILL loses only records not yet written';

/** The setup a profile carries, or null when its completeness is not checked (no log file, or no setup written). */
export const completenessSetupFor = (profile: PluginProfile): CompletenessSetup | null =>
  profile.log.file === null ? null : (profile.completeness ?? null);

/**
 * The claims as the run's user filter leaves them. Markers log in as accounts of their own (a statement user, a
 * connect user, failed logins of throwaway names), so a kind whose account the filter does not let through is
 * claimed absent: the filter's promise is then what the phase checks, instead of failing the plugin for the
 * harness's accounts. With no filter the claims stand. The accounts' names differ only by their random tag, which
 * no filter lists, so any tag judges them alike.
 */
export function claimsUnderUserFilter(
  claims: Claims,
  audits: ((user: string) => boolean) | null,
  tag = 'judge',
): Claims {
  if (audits === null) return claims;
  const userOf = (kind: EventKind): string =>
    kind === 'connect'
      ? connectUser(tag)
      : kind === 'failedLogin'
        ? failedLoginUser(tag, 0)
        : statementUser(tag);
  const judged = eventKinds.map((kind) => [
    kind,
    claims[kind] === 'logged' && !audits(userOf(kind)) ? 'absent' : claims[kind],
  ]);
  return Object.fromEntries(judged) as Claims;
}
