import { readFileSync } from 'node:fs';
import { gunzipSync } from 'node:zlib';
import type { HtmlReportInput } from '../../reporters/format/html-report.ts';
import { parseCallgrindDump } from '../../src/counted/callgrind-dump.ts';
import { countedRecord } from '../../src/counted/count-run.ts';
import type { CountedArmReading } from '../../src/counted/counted-ab.ts';
import { predict } from '../../src/counted/prediction.ts';
import { compareWithBase } from '../../src/history/compare.ts';
import { toHistoryEntries } from '../../src/history/entry.ts';
import { parseHistory } from '../../src/history/parse-history.ts';
import { serverAudit } from '../../src/profiles/server-audit.ts';
import type { MachineRates } from '../../src/results/counted-record.ts';
import {
  type AuditEvents,
  type PluginResult,
  type ResultsFile,
  resultsFileSchema,
} from '../../src/results/schema.ts';
import { sampleIdentity } from './sample-identity.ts';

const read = (name: string) =>
  readFileSync(new URL(`../../fixtures/results/${name}`, import.meta.url), 'utf8');

/**
 * For report tests: the recorded results.json plus a result whose measurement never finished, seen from a feature
 * branch against the recorded history.
 */
export function recordedReportInput(): HtmlReportInput {
  const recorded: ResultsFile = resultsFileSchema.parse(JSON.parse(read('results-smoke-server-audit.json')));
  const [measured] = recorded.results;
  if (!measured) throw new Error('fixtures/results/results-smoke-server-audit.json holds no result');
  const unmeasured: PluginResult = {
    ...measured,
    title: 'Unmeasured <plugin> & co',
    verdict: 'error',
    overheadPct: null,
    overheadCi95: null,
    measurement: null,
    calibration: null,
  };
  const file = { ...recorded, results: [measured, unmeasured] };
  // The recorded history used a made-up server version; align it so the trend and comparison have a base.
  const prior = parseHistory(read('history-torn.jsonl')).entries.map((e) => ({
    ...e,
    server: measured.server,
  }));
  const revision = { commit: 'e27add4e27add4e27add4', branch: 'feature/x' };
  const entries = toHistoryEntries(file, revision, 'invocation-now');
  const comparisons = compareWithBase(entries, prior, { baseBranch: 'main', maxRegressionPp: 5 });
  return { file, revision, entries, comparisons, prior, maxRegressionPp: 5 };
}

const APP_ACCOUNTS = ['auditbench_app', 'auditbench_checks'];

/** Made-up counts in the shape the measurement records, for report tests: not a measurement. */
const logged = (perTxnByClass: Record<string, number>): AuditEvents => ({
  perTxnByClass,
  fromTrafficPerTxn: Object.values(perTxnByClass).reduce((sum, n) => sum + n, 0),
  accounts: APP_ACCOUNTS,
  idle: false,
  advice: null,
  cause: null,
});

const IDLE_ADVICE =
  'measured an idle plugin: server_audit_events=CONNECT,QUERY_DDL,QUERY_DCL logs only CONNECT, QUERY_DDL, QUERY_DCL, which sysbench\'s persistent connections never send: add `traffic: { added: { connectionsPerS: 10, ddlPerS: 10, dclPerS: 10 } }` to the run in auditbench.config.ts (docs/traffic.md, "Added traffic")';

/** One run of a sweep, made from the recorded result: its id, settings, overhead and what it logged. */
function sweepRun(
  measured: PluginResult,
  run: { id: string; settings: Record<string, string>; overheadPct: number; events: AuditEvents },
): PluginResult {
  const shown = Object.entries(run.settings).map(([k, v]) => `${k}=${v.replace(/^'(.*)'$/, '$1')}`);
  const ci: [number, number] = [run.overheadPct - 4, run.overheadPct + 4];
  const measurement = measured.measurement && {
    ...measured.measurement,
    overheadPct: run.overheadPct,
    overheadCi95: ci,
    auditEvents: run.events,
  };
  return {
    ...measured,
    runId: run.id,
    title: shown.length > 0 ? `${measured.title} (${shown.join(', ')})` : measured.title,
    overheadPct: run.overheadPct,
    overheadCi95: ci,
    measurement,
    settings: {
      global: { ...serverAudit.measureSettings, ...run.settings },
      startup: {},
      optionFile: null,
    },
  };
}

/**
 * For report tests of a sweep: four runs of server_audit as issue 21 tried them, made from the recorded result. The
 * stock run; one naming the application's account whose lifecycle failed (the checks' account is not included);
 * an idle one (CONNECT, DDL and DCL under OLTP alone), which fails; and QUERY_DML_NO_SELECT.
 */
export function sweepReportInput(): HtmlReportInput {
  const base = recordedReportInput();
  const [measured] = base.file.results;
  if (!measured) throw new Error('the recorded input holds a result');
  const stock = sweepRun(measured, {
    id: 'server_audit',
    settings: {},
    overheadPct: 9.1,
    events: logged({ QUERY: 20, TABLE: 14, CONNECT: 0 }),
  });
  const inclUsers = sweepRun(measured, {
    id: 'incl-users-app',
    settings: { server_audit_incl_users: "'auditbench_app'" },
    overheadPct: 8.4,
    events: logged({ QUERY: 20, TABLE: 14 }),
  });
  inclUsers.lifecycle = measured.lifecycle.map((c) =>
    ['logs-query', 'failed-queries', 'masks-password', 'rotation'].includes(c.check)
      ? { ...c, ok: false, expected: true, observed: false }
      : c,
  );
  const idle = sweepRun(measured, {
    id: 'ddl-dcl-from-cnf',
    settings: { server_audit_events: "'CONNECT,QUERY_DDL,QUERY_DCL'" },
    overheadPct: 1.3,
    events: {
      ...logged({ CONNECT: 0, QUERY: 0 }),
      fromTrafficPerTxn: 0,
      idle: true,
      advice: IDLE_ADVICE,
      cause: 'events-absent',
    },
  });
  // As summariseMeasurement records it: a plugin that logged none of the traffic is not judged.
  idle.verdict = 'idle';
  if (idle.measurement) idle.measurement = { ...idle.measurement, verdict: 'idle', reason: IDLE_ADVICE };
  const dml = sweepRun(measured, {
    id: 'dml-no-select',
    settings: { server_audit_events: "'QUERY_DML_NO_SELECT'" },
    overheadPct: 7.0,
    events: logged({ QUERY: 4 }),
  });
  const file = { ...base.file, results: [stock, inclUsers, idle, dml] };
  const entries = toHistoryEntries(file, base.revision, '5eed5eed-0000-4000-8000-000000000021');
  const comparisons = compareWithBase(entries, base.prior, { baseBranch: 'main', maxRegressionPp: 5 });
  return { ...base, file, entries, comparisons, invocationId: '5eed5eed-0000-4000-8000-000000000021' };
}

/** One tail quantile of a made-up latency record: off and on in ms, the change and its interval in % and ms. */
/** One quantile's off/on record for a made-up latency figure: the change and its interval in % and in ms. */
export function quantileChange(offMs: number, changePct: number, ci: [number, number]) {
  const ms = (pct: number) => (offMs * pct) / 100;
  return {
    offMs,
    onMs: offMs + ms(changePct),
    changePct,
    changeMs: ms(changePct),
    changeCi95Pct: ci,
    changeCi95Ms: [ms(ci[0]), ms(ci[1])] as [number, number],
    perPairChangePct: [changePct - 3, changePct, changePct + 2, changePct - 1, changePct + 1, changePct],
  };
}

interface ThreadsPoint {
  threads: number;
  baselineTps: number;
  overheadPct: number;
  ci95: [number, number];
  p95: { offMs: number; changePct: number; ci95: [number, number] };
  p99: { offMs: number; changePct: number; ci95: [number, number] };
  /** An open-loop point's rate (tx/s), set from the closed-loop point at the same threads. */
  openLoopRate?: number;
}

/** One point of server_audit's sweep, made from the recorded result: its threads, interval and latency record. */
function threadsPoint(measured: PluginResult, workloadThreads: number, p: ThreadsPoint): PluginResult {
  const m = measured.measurement;
  if (!m) throw new Error('the recorded result holds a measurement');
  // The workload's own point keeps the run's id; the others are `id@t<threads>-<cores>`, as runs-suite names them.
  const open = p.openLoopRate;
  const own = p.threads === workloadThreads && open === undefined;
  const runId = own
    ? 'server_audit'
    : `server_audit@t${p.threads}-pinned${open === undefined ? '' : '-open'}`;
  const pluginTps = p.baselineTps * (1 - p.overheadPct / 100);
  const [low, high] = p.ci95;
  const reason = `overhead ${p.overheadPct}% (95% CI ${low}% to ${high}%) is within the ${m.limitPct}% limit`;
  const transactions = Math.round(p.baselineTps * 24);
  const latency = {
    measured: true as const,
    pairs: m.pairs,
    skippedPairs: 0,
    trimmedEachSide: 1,
    offTransactions: transactions,
    onTransactions: Math.round(transactions * (1 - p.overheadPct / 100)),
    p95: quantileChange(p.p95.offMs, p.p95.changePct, p.p95.ci95),
    p99: quantileChange(p.p99.offMs, p.p99.changePct, p.p99.ci95),
    maxP99IncreasePct: null,
    p99LimitFailed: false,
    reason: 'no maxP99IncreasePct set',
  };
  return {
    ...measured,
    runId,
    title: own
      ? measured.title
      : open === undefined
        ? `${measured.title} · ${p.threads} threads, pinned cores`
        : `${measured.title} · open loop at ${open} tx/s, ${p.threads} threads, pinned cores`,
    baselineTps: p.baselineTps,
    pluginTps,
    overheadPct: p.overheadPct,
    overheadCi95: p.ci95,
    verdict: 'pass',
    measurement: {
      ...m,
      baselineTps: p.baselineTps,
      pluginTps,
      overheadPct: p.overheadPct,
      overheadCi95: p.ci95,
      verdict: 'pass',
      reason,
      threads: p.threads,
      cores: 'pinned',
      ...(own ? {} : { sweepOf: 'server_audit' }),
      ...(open !== undefined && {
        openLoop: {
          ratePerS: open,
          ofBaselinePct: 70,
          baselineTps: Math.round(open / 0.7),
          baselineRunId: `server_audit@t${p.threads}-pinned`,
        },
      }),
      latency,
    },
  };
}

/**
 * For report tests of a threads sweep: server_audit on smoke at threads [1, 4, 16] (4 is the workload's own, so it
 * keeps the run's id), then its open-loop point at 16 threads, each point with its own interval and a p95/p99
 * latency record. Made-up figures in the
 * recorded result's shape, not a measurement.
 */
export function threadsSweepReportInput(): HtmlReportInput {
  const base = recordedReportInput();
  const [measured] = base.file.results;
  if (!measured) throw new Error('the recorded input holds a result');
  const points: ThreadsPoint[] = [
    {
      threads: 1,
      baselineTps: 310.4,
      overheadPct: 5.1,
      ci95: [1.2, 8.9],
      p95: { offMs: 4.1, changePct: 3.2, ci95: [0.4, 6.1] },
      p99: { offMs: 6.8, changePct: 4.4, ci95: [-1.9, 10.8] },
    },
    {
      threads: 4,
      baselineTps: 565.6,
      overheadPct: 7.3,
      ci95: [3.0, 11.4],
      p95: { offMs: 11.9, changePct: 8.5, ci95: [3.6, 13.5] },
      p99: { offMs: 18.2, changePct: 12.1, ci95: [4.0, 20.3] },
    },
    {
      threads: 16,
      baselineTps: 590.2,
      overheadPct: 12.8,
      ci95: [8.1, 17.2],
      p95: { offMs: 44.7, changePct: 17.9, ci95: [9.8, 26.0] },
      p99: { offMs: 71.3, changePct: 31.5, ci95: [15.2, 47.9] },
    },
    {
      threads: 16,
      openLoopRate: 413,
      baselineTps: 413.4,
      overheadPct: 0.3,
      ci95: [-0.9, 1.5],
      p95: { offMs: 9.2, changePct: 38.0, ci95: [20.1, 58.3] },
      p99: { offMs: 16.5, changePct: 64.2, ci95: [31.0, 105.9] },
    },
  ];
  const file = { ...base.file, results: points.map((p) => threadsPoint(measured, 4, p)) };
  const invocationId = '5eed5eed-0000-4000-8000-000000000024';
  const entries = toHistoryEntries(file, base.revision, invocationId);
  const comparisons = compareWithBase(entries, base.prior, { baseBranch: 'main', maxRegressionPp: 5 });
  return { ...base, file, entries, comparisons, invocationId };
}

/**
 * For the counted section: the recorded results.json's measured result with a counted record built from the two
 * recorded callgrind dumps of server_audit (fixtures/callgrind), one off and one on arm of 150 transactions each.
 */
export function countedReportInput(): HtmlReportInput {
  const input = recordedReportInput();
  const [measured] = input.file.results;
  if (!measured) throw new Error('the recorded results hold no result');
  const dump = (name: string) =>
    parseCallgrindDump(
      gunzipSync(
        readFileSync(new URL(`../../fixtures/callgrind/${name}.callgrind.gz`, import.meta.url)),
      ).toString('utf8'),
    );
  const totals = (instructions: number, on: boolean) => ({
    instructions,
    writeCalls: on ? 156 * 150 : 79 * 150,
    writeBytes: on ? 8_850 * 150 : 5_860 * 150,
    logBytes: on ? 3_269 * 150 : 0,
    events: on ? 38 * 150 : 0,
  });
  const off = dump('server-audit-off');
  const on = dump('server-audit-on');
  const arms: CountedArmReading[] = [
    { kind: 'off', transactions: 150, totals: totals(off.totalIr, false), dump: off, lostThreads: 0 },
    { kind: 'on', transactions: 150, totals: totals(on.totalIr, true), dump: on, lostThreads: 0 },
  ];
  const identity = sampleIdentity({
    serverVersion: measured.server.version,
    serverSha256: null,
    pluginSha256: null,
    configHash: measured.configHash ?? null,
    glibcSha256: null,
    cpuFeatures: [],
    hostNameBytes: 8,
  });
  const plan = { events: 150, seed: 42, pairs: 1 };
  const counted = countedRecord(
    { warmup: arms[0] as CountedArmReading, arms, wallS: 60, queryIds: null, connectionIds: null },
    { subject: 'server_audit', plan, identity, soname: 'server_audit.so', wallS: 0 },
  );
  const wall = measured.measurement;
  const prediction = predict({
    rates: recordedRates,
    figures: counted.figures,
    measured: wall ? { pct: wall.overheadPct, ci95: wall.overheadCi95 } : null,
  });
  const results = [{ ...measured, counted: { ...counted, prediction } }, ...input.file.results.slice(1)];
  return { ...input, file: { ...input.file, results } };
}

/** Machine rates as readMachineRates read them on this project's VM (server_audit's smoke run, 2026-12-05). */
export const recordedRates: MachineRates = {
  transactions: 8_610,
  seconds: 10.3,
  serverCpuPerTx: 0.00117,
  connectionUserPerTx: 0.00058,
  coresUsed: 0.98,
  coresAvailable: 1,
  idleShare: 0.02,
  writeTimings: [
    { bytes: 32, seconds: 1.8e-6 },
    { bytes: 128, seconds: 2.0e-6 },
    { bytes: 512, seconds: 2.6e-6 },
  ],
  secondsPerWrite: 1.9e-6,
  writeSize: 47,
  failed: null,
};
