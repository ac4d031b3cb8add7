/**
 * A run's InnoDB buffer pool against the memory this host has free: a DBA's production file may ask for most of a
 * large server's RAM, and the throwaway server must not starve the live one beside it. Pure: the caller reads
 * /proc/meminfo and the runs.
 */

/** A size as the server reads it: bytes, or a number with K, M, G, T (powers of 1024); null when it is not one. */
export function sizeBytes(value: string): number | null {
  const match = /^\s*(\d+(?:\.\d+)?)\s*([kmgt]?)b?\s*$/i.exec(value);
  if (!match?.[1]) return null;
  const power = ['', 'k', 'm', 'g', 't'].indexOf((match[2] ?? '').toLowerCase());
  return Math.round(Number(match[1]) * 1024 ** power);
}

/** MemAvailable from /proc/meminfo's text, in bytes; null when absent. */
export function memAvailableBytes(meminfo: string): number | null {
  const match = /^MemAvailable:\s+(\d+)\s+kB$/m.exec(meminfo);
  return match?.[1] ? Number(match[1]) * 1024 : null;
}

const gib = (bytes: number) => `${(bytes / 1024 ** 3).toFixed(1)} GiB`;

/**
 * The refusal for the first run whose buffer pool is larger than MemAvailable, or null. `runs` carry their startup
 * options as written (`loose-innodb_buffer_pool_size`).
 */
export function bufferPoolProblem(
  runs: readonly { id: string; startupOptions: Readonly<Record<string, string>> }[],
  availableBytes: number,
  overrideVariable: string,
): string | null {
  for (const run of runs) {
    for (const [name, value] of Object.entries(run.startupOptions)) {
      const key = name
        .toLowerCase()
        .replaceAll('-', '_')
        .replace(/^loose_/, '');
      if (key !== 'innodb_buffer_pool_size') continue;
      const bytes = sizeBytes(value.replace(/^"|"$/g, ''));
      if (bytes === null || bytes <= availableBytes) continue;
      return `run ${run.id}: innodb_buffer_pool_size=${value} (${gib(bytes)}) is more than this host's MemAvailable (${gib(availableBytes)}): the run's server would starve the others here; give the run a smaller pool in its startupOptions, or set ${overrideVariable}=1 on a host with nothing else to protect`;
    }
  }
  return null;
}
