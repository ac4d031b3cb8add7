import type { FaultFacts } from '../plugins/fault-support.ts';
import type { MatrixPlacement } from '../plugins/profile.ts';

/** Crossed with every server of the matrix, no cell expected to come to anything but the default. */
export const CROSSED_EVERYWHERE: MatrixPlacement = { crossed: true, expectations: [] };

/**
 * What every file logger profiled here did in the fault phase on MariaDB 10.11.19 (suites/faults.suite.ts,
 * docs/faults.md): a frozen disk held every audited statement until it thawed, a renamed file kept the records until
 * the plugin's reopen, and copytruncate left no hole. A profile gives what differs: a full disk, and the answer to
 * logging on into a directory it cannot write (read-only and missing alike).
 */
export function fileLoggerFaults(own: {
  diskFull: FaultFacts['disk-full'];
  unwritableDir: FaultFacts['read-only-dir'];
}): Partial<FaultFacts> {
  return {
    'disk-full': own.diskFull,
    frozen: { serverUp: true, auditedStatementsWait: true, recovery: 'by itself' },
    moved: { writesMovedFile: true, recovery: 'after reopen' },
    copytruncate: { holeAfterTruncate: false },
    'read-only-dir': { ...own.unwritableDir },
    'missing-dir': { ...own.unwritableDir },
  };
}
