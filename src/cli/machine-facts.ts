import { readdir } from 'node:fs/promises';
import path from 'node:path';
import { execa } from 'execa';
import type { Environment } from '../config/env.ts';
import { notSuppliedReason } from '../plugins/availability.ts';
import type { PluginProfile } from '../plugins/profile.ts';
import { defaultPluginDir } from '../servers/plugin-dir.ts';
import { findServerBinary, type ServerBinary } from '../servers/server-binary.ts';

/** What this machine offers the runs, found without starting a server. */
export interface MachineFacts {
  target: Environment['target'];
  /** The local server binary, or why there is none. */
  binary: ServerBinary | { problem: string } | null;
  /** Plugin libraries in the server's plugin directory and the folders auditbench adds to it. */
  libraries: { names: Set<string>; dirs: string[] };
  /** Docker answers (container target only; null where it does not matter). */
  docker: { ok: true } | { ok: false; problem: string } | null;
}

async function libraryNames(dirs: string[]): Promise<Set<string>> {
  const names = new Set<string>();
  for (const dir of dirs) for (const name of await readdir(dir).catch(() => [])) names.add(name);
  return names;
}

async function dockerAnswers(): Promise<MachineFacts['docker']> {
  const result = await execa('docker', ['version', '--format', '{{.Server.Version}}'], {
    reject: false,
    timeout: 10_000,
  });
  if (result.exitCode === 0) return { ok: true };
  const why = String(result.stderr || result.code || 'no answer').split('\n')[0];
  return { ok: false, problem: `no Docker here (${why}): start it, or use AUDITBENCH_TARGET=local` };
}

/** The local server binary and plugin libraries, or Docker for the container target; the external one is not asked. */
export async function machineFacts(config: Environment): Promise<MachineFacts> {
  if (config.target === 'container') {
    return {
      target: config.target,
      binary: null,
      libraries: { names: new Set(), dirs: [] },
      docker: await dockerAnswers(),
    };
  }
  if (config.target !== 'local') {
    return { target: config.target, binary: null, libraries: { names: new Set(), dirs: [] }, docker: null };
  }
  let binary: MachineFacts['binary'];
  const dirs: string[] = [];
  try {
    const found = await findServerBinary(config.mysqldPath, config.searchPath);
    binary = found;
    dirs.push(await defaultPluginDir(found.path));
  } catch (error) {
    binary = { problem: error instanceof Error ? error.message : String(error) };
  }
  if (config.pluginDir) dirs.push(path.resolve(config.pluginDir));
  return {
    target: config.target,
    binary,
    libraries: { names: await libraryNames(dirs), dirs },
    docker: null,
  };
}

/** Why a run of this profile would be skipped here, or null; what only a started server can tell is left to it. */
export function skipReason(profile: PluginProfile, facts: MachineFacts): string | null {
  if (facts.docker && !facts.docker.ok) return facts.docker.problem;
  const binary = facts.binary;
  if (binary === null) return null;
  if ('problem' in binary) return binary.problem;
  if (!profile.flavors.includes(binary.flavor)) {
    return `${profile.title} is for ${profile.flavors.join('/')} servers, ${binary.path} is ${binary.flavor} ${binary.version}`;
  }
  if (profile.soname !== null && !facts.libraries.names.has(profile.soname)) {
    return notSuppliedReason(profile, facts.libraries.dirs.join(' or ') || 'the plugin directory');
  }
  return null;
}
