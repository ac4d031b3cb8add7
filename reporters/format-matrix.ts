import Table from 'cli-table3';
import { describeCell } from '../src/matrix/cell.ts';
import type { MatrixCellRecord } from '../src/results/schema.ts';

const serverLabel = (cell: MatrixCellRecord) =>
  `${cell.server.image ?? 'local'}\n${cell.server.flavor} ${cell.server.version}`;

/** The plugin × server grid: one row per plugin, one column per server, each cell its outcome in a line. */
export function formatMatrix(cells: MatrixCellRecord[]): string {
  const servers = [...new Set(cells.map(serverLabel))];
  const plugins = [...new Set(cells.map((c) => c.plugin))];
  const table = new Table({
    head: ['plugin', ...servers],
    style: { head: [], border: [] },
    wordWrap: true,
    colWidths: [24, ...servers.map(() => 30)],
  });
  for (const plugin of plugins) {
    table.push([
      plugin,
      ...servers.map((server) => {
        const cell = cells.find((c) => c.plugin === plugin && serverLabel(c) === server);
        return cell ? describeCell(cell) : '–';
      }),
    ]);
  }
  return table.toString();
}
