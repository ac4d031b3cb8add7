import type { CompletenessSetup } from '../plugins/completeness-claims.ts';
import type { PluginProfile } from '../plugins/profile.ts';

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
