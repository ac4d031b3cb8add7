import type { StartedServer } from '../servers/started-server.ts';
import { presence } from './lifecycle/context.ts';
import type { PluginProfile } from './profile.ts';

/** Why a plugin cannot be tried on this server (wrong flavor, library not supplied), or null when it can. */
export async function unavailableReason(
  server: StartedServer,
  profile: PluginProfile,
): Promise<string | null> {
  const { flavor, version } = server.info;
  if (!profile.flavors.includes(flavor)) {
    return `${profile.title} is for ${profile.flavors.join('/')} servers, this is ${flavor} ${version}`;
  }
  if (profile.soname === null) return builtInReason(server, profile);
  const { rows } = await server.query('SELECT @@plugin_dir AS dir');
  const dir = String(rows[0]?.dir ?? '');
  if (!(await server.pluginFileExists(profile.soname)))
    return notSuppliedReason(profile, `the server's plugin directory (${dir})`);
  return null;
}

/** The one line a run, phase or listing of a plugin whose library is nowhere here is skipped with: what to supply. */
export function notSuppliedReason(profile: PluginProfile, where: string): string {
  const what = profile.supply ?? `the plugin's library, ${profile.soname}`;
  return `${profile.soname} is not in ${where}: set AUDITBENCH_PLUGIN_DIR to a folder holding ${what} (docs/targets.md, "Supplying a plugin")`;
}

/** A built-in needs no library, only its logging variable (a server built without it lacks the feature). */
async function builtInReason(server: StartedServer, profile: PluginProfile): Promise<string | null> {
  const { flavor, version } = server.info;
  if ((await presence(server, profile)) !== null) return null;
  return `${profile.title} is built into the server, but ${flavor} ${version} has no ${profile.loggingVariable ?? 'logging'} variable`;
}
