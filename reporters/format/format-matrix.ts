import Table from 'cli-table3';
import { describeCell } from '../../src/matrix/cell.ts';
import { describeBuild } from '../../src/matrix/image-build.ts';
import type { MatrixCellRecord } from '../../src/results/schema.ts';

// The column is the image (or the local server): an unavailable image has no real version to group by.
const serverKey = (cell: MatrixCellRecord) =>
  cell.server.image ?? `local ${cell.server.flavor} ${cell.server.version}`;

function serverHeader(cells: MatrixCellRecord[]): string {
  const first = cells[0] as MatrixCellRecord;
  const unavailable = cells.find((c) => c.outcome === 'unavailable');
  const build = cells.find((c) => c.server.imageBuild)?.server.imageBuild;
  return [
    first.server.image ?? 'local',
    unavailable ? 'NOT AVAILABLE' : `${first.server.flavor} ${first.server.version}`,
    ...(build ? [describeBuild(build)] : []),
  ].join('\n');
}

const cellText = (cell: MatrixCellRecord) =>
  cell.outcome === 'unavailable' ? 'NOT MEASURED: server unavailable (below)' : describeCell(cell);

/** Each unavailable server once: which image, why, and the last lines of its build (or start) log. */
function unavailableNotes(cells: MatrixCellRecord[]): string[] {
  const seen = new Set<string>();
  const notes: string[] = [];
  for (const cell of cells) {
    if (cell.outcome !== 'unavailable' || seen.has(serverKey(cell))) continue;
    seen.add(serverKey(cell));
    notes.push(`${serverKey(cell)} NOT AVAILABLE: ${cell.reason}`);
    for (const line of cell.details ?? []) notes.push(`  | ${line}`);
  }
  return notes;
}

/**
 * The plugin × server grid: one row per plugin, one column per server (with the suite and package versions its
 * image was built from), each cell its outcome in a line. A requested server that never ran is still a column,
 * and the reason with its log's last lines follows the grid.
 */
export function formatMatrix(cells: MatrixCellRecord[]): string {
  const servers = [...new Set(cells.map(serverKey))];
  const plugins = [...new Set(cells.map((c) => c.plugin))];
  const table = new Table({
    head: ['plugin', ...servers.map((s) => serverHeader(cells.filter((c) => serverKey(c) === s)))],
    style: { head: [], border: [] },
    wordWrap: true,
    colWidths: [24, ...servers.map(() => 30)],
  });
  for (const plugin of plugins) {
    table.push([
      plugin,
      ...servers.map((server) => {
        const cell = cells.find((c) => c.plugin === plugin && serverKey(c) === server);
        return cell ? cellText(cell) : '–';
      }),
    ]);
  }
  return [table.toString(), ...unavailableNotes(cells)].join('\n');
}
