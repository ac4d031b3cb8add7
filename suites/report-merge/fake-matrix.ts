import type { MatrixCellRecord } from '../../src/results/schema.ts';

/** Stand-in columns of the matrix: the local server and two images (planning reads only labels and images). */
export const fakeTargets = [
  { label: 'local MariaDB', image: null },
  { label: 'MariaDB 10.11', image: 'auditbench/mariadb:10.11' },
  { label: 'MySQL 9.7', image: 'auditbench/mysql:9.7' },
];

/** A working cell with a made-up overhead; `reason` says which shard measured it. */
export function fakeCell(plugin: string, image: string | null, shard: string): MatrixCellRecord {
  const server = image?.includes('mysql')
    ? { flavor: 'mysql' as const, version: '9.7.0', target: 'container' as const, image }
    : {
        flavor: 'mariadb' as const,
        version: '10.11.19',
        target: image ? ('container' as const) : ('local' as const),
        image,
      };
  return {
    plugin,
    server,
    outcome: 'works',
    reason: `a stand-in cell (shard ${shard})`,
    lifecycleOk: true,
    overheadPct: 1,
    overheadCi95: [0, 2],
    verdict: 'pass',
  };
}
