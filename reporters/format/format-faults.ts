import type { FaultRecord } from '../../src/results/fault-record.ts';
import type { PluginResult } from '../../src/results/schema.ts';
import { fixed } from './format-numbers.ts';
import type { SectionContent } from './section.ts';

/** The fault table's columns: plugin × fault → what the server did, what the audit log kept, how logging came back. */
export const FAULT_COLUMNS = ['plugin', 'fault', 'server', 'audit records', 'recovery'] as const;

const isEnableFault = (r: FaultRecord) => r.fault === 'read-only-dir' || r.fault === 'missing-dir';

/** What the server did: up or not, the longest wait of an audited statement, TPS before → during. */
export function serverCell(r: FaultRecord): string {
  if (isEnableFault(r)) return `${r.facts.answer}: ${r.answer ?? ''}`;
  const up = r.facts.serverUp === false ? 'DOWN' : 'up';
  const stall = r.longestStallS === null ? '' : `, longest stall ${fixed(r.longestStallS)} s`;
  const after = r.receiver ? ` → ${fixed(r.receiver.tpsAfter, 0)}` : '';
  const tps = r.tpsBefore === null ? '' : `, TPS ${fixed(r.tpsBefore, 0)} → ${fixed(r.tpsDuring, 0)}${after}`;
  return `${up}${stall}${tps}`;
}

const counts = (byFile: Record<string, number>) =>
  Object.entries(byFile)
    .map(([file, n]) => `${n} in ${file.split('/').at(-1)}`)
    .join(', ');

/** What the audit log kept: markers lost of those acked, and for a moved or truncated file where they landed. */
export function recordsCell(r: FaultRecord): string {
  if (isEnableFault(r)) return r.facts.loggingOn ? 'logging on' : 'logging off';
  const lost = `${r.markersLost} of ${r.markersAcked} lost`;
  const where = Object.entries(r.landed ?? {}).map(
    ([window, byFile]) => `${window}: ${counts(byFile) || 'none'}`,
  );
  const hole = r.facts.holeAfterTruncate === true ? ['NUL hole after truncate'] : [];
  const order = r.receiver
    ? [`${r.receiver.duplicated} duplicated`, `${r.receiver.outOfOrder} out of order`]
    : [];
  // A plugin's own failure counters (server_audit's Server_audit_writes_failed) say what it noticed.
  const failed = Object.entries(r.counters)
    .filter(([name, value]) => /fail/i.test(name) && value !== '0')
    .map(([name, value]) => `${name} ${value}`);
  return [lost, ...order, ...where, ...hole, ...failed].join('; ');
}

export function recoveryCell(r: FaultRecord): string {
  const rung = typeof r.facts.recovery === 'string' ? r.facts.recovery : '—';
  const recoverS = r.receiver?.recoverS;
  return recoverS === undefined || recoverS === null ? rung : `${rung}, ${fixed(recoverS)} s after the fault`;
}

/** A receiver fault's throughput second by second: `-1 s 812 | 1 s 0* | …`, a star on the seconds of the fault. */
export function perSecondLine(r: FaultRecord): string | null {
  if (!r.receiver) return null;
  return r.receiver.perSecond
    .map((s) => `${s.fromFaultS} s ${fixed(s.tps, 0)}${s.phase === 'during' ? '*' : ''}`)
    .join(' | ');
}

/** One row per plugin × fault, in the order the phase ran them. */
export function faultRows(results: readonly PluginResult[]): string[][] {
  return results.flatMap((result) =>
    (result.faults ?? []).map((r) => [
      result.title,
      r.fault,
      serverCell(r),
      recordsCell(r),
      recoveryCell(r) +
        (r.mismatches.length > 0 ? ` (differs from the profile: ${r.mismatches.join('; ')})` : ''),
    ]),
  );
}

/** A line for the suite's own log: one fault of one plugin. */
export function formatFaultRecord(r: FaultRecord): string {
  const seconds = perSecondLine(r);
  return `${r.fault}: server ${serverCell(r)} | records ${recordsCell(r)} | recovery ${recoveryCell(r)}${
    seconds === null
      ? ''
      : `\n  TPS each second from the fault's start (* during it, ${fixed(r.receiver?.faultS)} s): ${seconds}`
  }${r.serverSaid.length > 0 ? `\n  error log: ${r.serverSaid.join('\n  error log: ')}` : ''}`;
}

/** One table of plugin × fault, and how the faults were made. */
export function faultsContent(results: readonly PluginResult[]): SectionContent {
  return {
    about: [
      "Each plugin's log on a small filesystem of the harness's own: filled, frozen (fsfreeze), the file moved (mv) or copied and truncated under load, and logging switched on into a read-only or missing directory. Recovery is the first step that brought records back: by itself, the plugin's reopen command, its enable steps, a restart.",
      'Stalls and TPS were measured under sysbench on the run\'s machine; "lost" counts probe markers the server answered that no log file holds.',
      "A syslog run's receiver faults (AUDITBENCH_FAULTS=receiver): its rsyslogd paused 5 s, killed and started again, its socket removed; TPS before → during → after, duplicates and order in the receiver's file, and the time from the fault's end until every answered marker had a record again.",
    ],
    tables: [
      { caption: 'plugin × fault', head: FAULT_COLUMNS.map((text) => ({ text })), rows: faultRows(results) },
    ],
  };
}
