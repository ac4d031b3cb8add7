// Does the per-event cost explain the sysbench loss? The gate's workload is CPU-bound (the server pinned to one
// core under 4+ client threads), so each transaction costs the server 1/TPS core-seconds; the plugin adds its
// per-statement µs to that. Predicted loss = added / (base + added). A ratio near 1 says the single-operation costs
// carry over to the mix; far from 1 says something the single operations miss (contention, cache effects).
import type { CrossCheck, OperationCost } from './per-event-record.ts';

/** Statements per transaction of a sysbench mix, by the measured kind that stands for them. */
export interface StatementMix {
  name: string;
  statementsPerTxn: { select: number; write: number };
}

/**
 * sysbench oltp_read_write with its defaults: 10 point selects, 4 range selects (simple, sum, order, distinct),
 * 2 updates, a delete and an insert, inside BEGIN … COMMIT (oltp_common.lua). BEGIN and COMMIT are audited
 * statements too and are costed as reads; range selects are costed as point selects.
 */
export const oltpReadWriteMix: StatementMix = {
  name: 'sysbench oltp_read_write (default options)',
  statementsPerTxn: { select: 10 + 4 + 2, write: 4 },
};

export interface SysbenchLoss {
  baselineTps: number;
  overheadPct: number;
  overheadCi95: [number, number] | null;
  /** Cores the server could use during the sysbench runs: 1 when pinned. */
  serverCores: number;
}

/** The sysbench loss the per-event costs predict, next to the one measured; null when a cost is missing. */
export function crossCheck(
  operations: readonly OperationCost[],
  sysbench: SysbenchLoss,
  mix: StatementMix = oltpReadWriteMix,
): CrossCheck | null {
  const select = operations.find((o) => o.kind === 'point-select');
  const write = operations.find((o) => o.kind === 'update');
  if (!select || !write || !(sysbench.baselineTps > 0) || !(sysbench.serverCores > 0)) return null;
  const { select: nSelect, write: nWrite } = mix.statementsPerTxn;
  const baseUsPerTxn = (sysbench.serverCores * 1e6) / sysbench.baselineTps;
  const lossPct = (addedUs: number) => (100 * addedUs) / (baseUsPerTxn + addedUs);
  const addedUsPerTxn = nSelect * select.addedUs + nWrite * write.addedUs;
  const selectCi = select.addedCi95Us;
  const writeCi = write.addedCi95Us;
  // Bounds below 0 are noise (a plugin does not speed a server up), and past −base the formula has no meaning.
  const boundPct = (addedUs: number) => lossPct(Math.max(0, addedUs));
  const predictedCi95: [number, number] | null =
    selectCi && writeCi
      ? [
          boundPct(nSelect * selectCi[0] + nWrite * writeCi[0]),
          boundPct(nSelect * selectCi[1] + nWrite * writeCi[1]),
        ]
      : null;
  const predictedLossPct = lossPct(addedUsPerTxn);
  return {
    mix: mix.name,
    statementsPerTxn: { select: nSelect, write: nWrite },
    baselineTps: sysbench.baselineTps,
    serverCores: sysbench.serverCores,
    addedUsPerTxn,
    predictedLossPct,
    predictedCi95,
    measuredLossPct: sysbench.overheadPct,
    measuredCi95: sysbench.overheadCi95,
    ratio: sysbench.overheadPct > 0 ? predictedLossPct / sysbench.overheadPct : null,
  };
}
