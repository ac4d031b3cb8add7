import type { MatrixCellRecord } from '../results/schema.ts';

/**
 * What trying one plugin on one server came to: works (installed, lifecycle checked, overhead measured),
 * incompatible (the server refused the library), crash-loop (the server does not stay up with it), skipped
 * (not meant for this server), or error (the reason says what).
 */
export type CellOutcome = MatrixCellRecord['outcome'];
export type MatrixCell = MatrixCellRecord;

// ER_CANT_OPEN_LIBRARY (missing file, undefined symbol, wrong ABI) and ER_CANT_INITIALIZE_UDF (init failed,
// e.g. McAfee's "Couldn't find proper THD offsets"), ER_UDF_NO_PATHS: the server's own words for "not this build".
const incompatibleErrnos = new Set([1126, 1123, 1124, 1127]);

/** The server's own answer out of a wrapped error: from "ERROR nnnn" on, without the statement it quotes. */
export function serverAnswer(message: string): string {
  const firstLine = message.split('\n')[0] ?? message;
  const answer = /ERROR \d+.*$/.exec(firstLine)?.[0] ?? firstLine;
  return answer.replace(/\s*\[in: .*\]$/, '');
}

/** Classifies a failed INSTALL: the server refusing the library is incompatibility, anything else an error. */
export function classifyInstallFailure(
  errno: number | null,
  message: string,
): { outcome: CellOutcome; reason: string } {
  const reason = serverAnswer(message);
  if (errno !== null && incompatibleErrnos.has(errno)) return { outcome: 'incompatible', reason };
  return { outcome: 'error', reason };
}

/** One line per cell for the summary: `works 12.3% [10.1, 14.4] pass`, `incompatible: …`. */
export function describeCell(cell: MatrixCell): string {
  if (cell.outcome !== 'works') return `${cell.outcome}: ${cell.reason}`;
  const ci = cell.overheadCi95
    ? ` [${cell.overheadCi95[0].toFixed(1)}, ${cell.overheadCi95[1].toFixed(1)}]`
    : '';
  const overhead = cell.overheadPct === null ? 'not measured' : `${cell.overheadPct.toFixed(1)}%${ci}`;
  const lifecycle = cell.lifecycleOk === false ? ', lifecycle mismatches' : '';
  return `works: ${overhead} ${cell.verdict ?? ''}${lifecycle}`.trim();
}

/** A requested server that could not be built or started: what the column says instead of outcomes. */
export interface UnavailableServer {
  image: string;
  reason: string;
  /** The build log's last lines, or the failed start's. */
  details: string[];
}

/** The server's flavour and version as far as its image name tells, for a column nothing ran in. */
export function serverFromImage(image: string): { flavor: MatrixCell['server']['flavor']; version: string } {
  const flavor = /percona/i.test(image) ? 'percona' : /mysql/i.test(image) ? 'mysql' : 'mariadb';
  const tag = /:([^:/]+)$/.exec(image)?.[1] ?? 'unknown version';
  return { flavor, version: tag };
}

/** The cell of a plugin on a server that was requested and never ran: outcome 'unavailable', with the reason. */
export function unavailableCell(plugin: string, server: UnavailableServer): MatrixCell {
  return {
    plugin,
    server: { ...serverFromImage(server.image), target: 'container', image: server.image, imageBuild: null },
    outcome: 'unavailable',
    reason: server.reason,
    details: server.details,
    lifecycleOk: null,
    overheadPct: null,
    overheadCi95: null,
    verdict: null,
  };
}
