// Which auditbench a repository installs: a new one can move every measurement, so the gate measures every run.

/**
 * What names the installed auditbench: the lockfile's entry (version and integrity, so a re-packed tarball of the
 * same version counts), else package.json's dependency spec; null when neither mentions auditbench.
 */
export function installedAuditbench(lockText: string | null, manifestText: string | null): string | null {
  const lock = parse(lockText) as { packages?: Record<string, { version?: string; integrity?: string }> };
  const entry = lock?.packages?.['node_modules/auditbench'];
  if (entry) return [entry.version, entry.integrity].filter(Boolean).join(' ') || null;
  const manifest = parse(manifestText) as Record<string, Record<string, string> | undefined> | null;
  for (const field of ['devDependencies', 'dependencies', 'optionalDependencies']) {
    const spec = manifest?.[field]?.auditbench;
    if (spec) return spec;
  }
  return null;
}

function parse(text: string | null): unknown {
  if (text === null) return null;
  try {
    return JSON.parse(text);
  } catch {
    return null;
  }
}

/** The reason every run is measured, or null when the installed auditbench is the base's. */
export function versionChange(base: string | null, head: string | null): string | null {
  if (base === head) return null;
  const shown = (v: string | null) => (v === null ? 'none' : (v.split(' ')[0] ?? v));
  const what =
    shown(base) === shown(head) ? `${shown(head)}, a different build` : `${shown(base)} → ${shown(head)}`;
  return `the installed auditbench changed (${what})`;
}
