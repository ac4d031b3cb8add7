import type { CountedRecord } from '../../src/results/counted-record.ts';
import type { PluginResult } from '../../src/results/schema.ts';
import { countedSpec } from '../charts/counted-spec.ts';
import type { SectionContent } from './section.ts';

type Counted = PluginResult & { counted: CountedRecord };

const anyCounted = (results: readonly PluginResult[]): Counted[] =>
  results.filter((r): r is Counted => r.counted !== undefined);
/** Counted results whose figures are the plugin's cost: their on arms logged what the wall clock logged. */
const counted = (results: readonly PluginResult[]): Counted[] =>
  anyCounted(results).filter((r) => !r.counted.comparable?.refused);
/** One line per counted result refused as not comparable, naming both event figures. */
export const refusedLines = (results: readonly PluginResult[]): string[] =>
  anyCounted(results).flatMap((r) =>
    r.counted.comparable?.refused ? [`${where(r)}: ${r.counted.comparable.refused}`] : [],
  );

const where = (r: PluginResult) => `${r.runId ?? r.title} on ${r.server.flavor} ${r.server.version}`;
const signed = (v: number, digits: number) => `${v >= 0 ? '+' : ''}${v.toFixed(digits)}`;
const range = (ci: [number, number] | null, digits: number) =>
  ci
    ? ` [${digits === 0 ? thousands(ci[0]) : ci[0].toFixed(digits)}, ${digits === 0 ? thousands(ci[1]) : ci[1].toFixed(digits)}]`
    : '';
const thousands = (v: number) => Math.round(v).toLocaleString('en-US');
const signedThousands = (v: number) => `${v >= 0 ? '+' : '−'}${thousands(Math.abs(v))}`;

export const countedHead = ['per transaction', 'off', 'on', 'added [95% CI]', 'added %'];

/** The quantities as rows: instructions, write calls, bytes written, log bytes, audit events; send calls if added. */
export function countedRows(c: CountedRecord): string[][] {
  const f = c.figures;
  const row = (name: string, q: keyof CountedRecord['figures'], digits: number): string[] => {
    const x = f[q];
    return [
      name,
      digits === 0 ? thousands(x.offPerTx) : x.offPerTx.toFixed(digits),
      digits === 0 ? thousands(x.onPerTx) : x.onPerTx.toFixed(digits),
      `${digits === 0 ? signedThousands(x.addedPerTx) : signed(x.addedPerTx, digits)}${range(x.addedCi95, digits)}`,
      x.pct === null ? '–' : `${signed(x.pct, 2)}%${range(x.pctCi95, 2)}`,
    ];
  };
  return [
    row('instructions', 'instructions', 0),
    row('write syscalls', 'writeCalls', 1),
    row('bytes written', 'writeBytes', 0),
    row('audit log bytes', 'logBytes', 0),
    row('audit events', 'events', 1),
    // A syslog run's records leave through send(), which the write syscalls above do not count: a row where the
    // subject adds such calls (the server's own replies call it in both arms).
    ...(c.sendCalls && Math.abs(c.sendCalls.addedPerTx) >= 0.05
      ? [
          [
            'send calls (callgrind)',
            c.sendCalls.offPerTx.toFixed(1),
            c.sendCalls.onPerTx.toFixed(1),
            signed(c.sendCalls.addedPerTx, 1),
            '–',
          ],
        ]
      : []),
  ];
}

/** The ids the arms' audit lines carry, e.g. 'query ids 10,000–28,481 (skipped 490 to one width)'. */
function idsText(c: CountedRecord): string {
  const one = (what: string, ids: CountedRecord['queryIds']) => {
    if (!ids) return [];
    const width = String(ids.first).length === String(ids.last).length ? 'one width' : 'NOT one width';
    const skipped = ids.advancedBy > 0 ? `skipped ${thousands(ids.advancedBy)} to ${width}` : width;
    return [`${what} ${thousands(ids.first)}–${thousands(ids.last)} (${skipped})`];
  };
  const parts = [...one('query ids', c.queryIds), ...one('connection ids', c.connectionIds)];
  return parts.length > 0 ? `; ${parts.join(', ')}` : '';
}

/** Said where a measured arm could not count every connection thread's writes (`lostThreads`). */
function lostText(c: CountedRecord): string {
  const arms = c.arms.filter((a) => !a.warmup && a.lostThreads > 0);
  if (arms.length === 0) return '';
  const threads = arms.reduce((n, a) => n + a.lostThreads, 0);
  return `; write syscalls and bytes NOT complete: ${threads} connection thread${threads === 1 ? '' : 's'} in ${arms.length} arm${arms.length === 1 ? '' : 's'} exited or came and went unread`;
}

/** How the figures were counted, in one line. */
export function countedMethod(c: CountedRecord): string {
  const spread = c.figures.instructions.spreadPct;
  const pct = (v: number | null) => (v === null ? '–' : `${v.toFixed(2)}%`);
  return `callgrind, ${c.identity.workload}, ${c.pairs} ABBA pair${c.pairs === 1 ? '' : 's'} after a discarded arm; arms within ${pct(spread.off)} (off) and ${pct(spread.on)} (on) of their means${idsText(c)}${lostText(c)}; ${Math.round(c.wallS)} s`;
}

/** callgrind's name for a function it found no symbol for: its address (mariadbd has no .symtab, no debug package here). */
const UNRESOLVED = /^0x[0-9a-f]+$/i;

/**
 * The functions whose own instructions the subject adds most, with their object file; those callgrind could not name
 * are one "unresolved" item with their share of the added instructions, not a list of addresses.
 */
export function topFunctionLines(c: CountedRecord, count = 5): string[] {
  const named = c.topFunctions.filter((f) => !UNRESOLVED.test(f.fn));
  const unresolved = c.topFunctions.filter((f) => UNRESOLVED.test(f.fn));
  const lines = named
    .slice(0, count)
    .map(
      (f) => `${f.fn} (${f.object}) ${signed(f.addedPerTx, 0).replace(/\d+/, (d) => thousands(Number(d)))}`,
    );
  const total = c.figures.instructions.addedPerTx;
  const unresolvedPerTx = unresolved.reduce((sum, f) => sum + f.addedPerTx, 0);
  if (unresolved.length === 0) return lines;
  // A share of a net figure near zero (a plugin that adds almost nothing) can pass 100%: then the count itself.
  const share = total > 0 ? (100 * unresolvedPerTx) / total : Number.POSITIVE_INFINITY;
  lines.push(
    share <= 100
      ? `unresolved (${Math.round(share)}% of the added instructions)`
      : `unresolved (${signed(unresolvedPerTx, 0)} instructions a transaction, beside ${signed(total, 0)} added in all)`,
  );
  return lines;
}

function entryLine(c: CountedRecord): string | null {
  const [e] = c.entryPoints;
  if (!e) return null;
  // A stripped library's entry point has only an address: said as such, not printed.
  const through = UNRESOLVED.test(e.fn) ? 'one function callgrind could not name' : `${e.fn}()`;
  return `the plugin is entered through ${through} ${e.callsPerTx.toFixed(1)} times a transaction: ${thousands(e.inclusivePerTx)} instructions inside it when on, ${thousands(e.offInclusivePerTx)} when off`;
}

/**
 * The counts as a wall-clock figure on this machine, the rates they were priced at and what each part adds, e.g.
 * '… an instruction 0.18 ns, a 49-byte write() 1.9 µs; the plugin adds 37 µs of instructions and 139 µs of write()
 * to the server's 903 µs a transaction'.
 */
export function predictionLines(c: CountedRecord): string[] {
  const p = c.prediction;
  if (!p) return [];
  const r = p.rates;
  if (r.failed || p.secondsPerInstruction === null || p.addedS === null) return [p.line];
  const us = (seconds: number) => `${Math.round(seconds * 1e6)} µs`;
  const write =
    r.secondsPerWrite !== null && r.writeSize !== null
      ? `, a ${Math.round(r.writeSize)}-byte write() ${(r.secondsPerWrite * 1e6).toFixed(1)} µs`
      : '';
  return [
    p.line,
    `rates from ${Math.round(r.seconds)} s plugin off on the wall-clock server (which kept ${r.coresUsed.toFixed(2)} of its core busy): an instruction ${(p.secondsPerInstruction * 1e9).toFixed(2)} ns${write}; the plugin adds ${us(p.addedS.instructions)} of instructions and ${us(p.addedS.writes)} of write() to the server's ${us(r.serverCpuPerTx)} a transaction`,
  ];
}

/** Whether any result was counted, its figures refused as not comparable or not. */
export const hasCounted = (results: readonly PluginResult[]): boolean => anyCounted(results).length > 0;

/** A table per counted run with how it was counted and where the instructions go, the chart of those, and each refused run. */
export function countedContent(results: readonly PluginResult[]): SectionContent {
  const first = counted(results)[0] ?? anyCounted(results)[0];
  return {
    about: [
      'Each run’s plugin counted off against on under valgrind’s callgrind: the same transactions in every arm (one thread, a fixed seed), instructions of the connection threads, their write syscalls and bytes, the audit log’s bytes and events. Counts repeat to a fraction of a percent and compare across machines that run the same binaries; the wall clock above stays the verdict of what users feel.',
      ...(first?.counted.limits ?? []).map((l) => `Not counted: ${l}.`),
    ],
    charts: [
      {
        name: 'counted-functions',
        spec: countedSpec(results),
        empty: 'No counted run has a function breakdown.',
      },
    ],
    tables: counted(results).map((r) => ({
      caption: `${where(r)}: ${countedMethod(r.counted)}`,
      head: countedHead.map((text) => ({ text })),
      rows: countedRows(r.counted),
      notes: [
        `most added: ${topFunctionLines(r.counted).join('; ')}`,
        ...[entryLine(r.counted)].flatMap((l) => (l ? [l] : [])),
        ...predictionLines(r.counted),
      ],
    })),
    list: refusedLines(results),
  };
}
