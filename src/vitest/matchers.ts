import { type LimitPolicy, limitFailure } from '../bench/pipeline.ts';
import type { Measurement } from '../results/schema.ts';
import { decideVerdict } from '../stats/verdict.ts';
import {
  type AuditLogBytes,
  type AuditRecords,
  formatPattern,
  formatRecord,
  matchesPattern,
  quoteRecords,
  type RecordPattern,
} from './audit-records.ts';
import { besideUnreadable, quoteUnreadable } from './unreadable-lines.ts';

// The DBA's matchers, pure and synchronous on what a test already read (audit.since, audit.bytes, bench.run): each
// judge returns Vitest's { pass, message } and is unit-tested on every recorded log format. `isNot` is Vitest's `.not`.

export interface MatcherResult {
  pass: boolean;
  message: () => string;
}

/** A measurement as `bench.run()` returns it: the figures, the run's policy and where it ran (for the message). */
export interface RunMeasurement {
  measurement: Measurement;
  policy: LimitPolicy;
  where: string;
}

function isRecords(value: unknown): value is AuditRecords {
  return typeof value === 'object' && value !== null && Array.isArray((value as AuditRecords).records);
}

/** `toHaveLogged(pattern)` and `.not.toHaveLogged(pattern)` on `await audit.since(mark, …)`. */
export function judgeLogged(received: unknown, pattern: RecordPattern, isNot: boolean): MatcherResult {
  if (!isRecords(received)) {
    const message = () => 'toHaveLogged reads the records of `await audit.since(mark)`, got something else';
    return { pass: isNot, message };
  }
  const found = received.records.filter((r) => matchesPattern(r, pattern));
  const wanted = formatPattern(pattern);
  const of = `${received.records.length} record(s) since the mark`;
  if (isNot && received.closedBy === null) {
    // A pass here could be the log lagging behind: refuse to judge.
    return {
      pass: true,
      message: () =>
        `cannot show that no record matches ${wanted}: the records were not closed (${received.notClosedBecause}); read them with audit.since(mark, { closedBy: anAuditedAccount })\nFound ${of}:\n${quoteRecords(received.records)}`,
    };
  }
  const unreadable = besideUnreadable(received.rejected);
  if (found.length > 0) {
    return {
      pass: true,
      message: () =>
        `expected no record matching ${wanted}, found ${found.length} of ${of}:\n${quoteRecords(found)}${unreadable}`,
    };
  }
  if (isNot && unreadable !== '') {
    // A line the reader cannot trust may be the very record: refuse to judge.
    return {
      pass: true,
      message: () =>
        `cannot show that no record matches ${wanted}: none of ${of} does, but the span holds lines that are no record a reader can trust, and any of them may be one:\n${quoteUnreadable(received.rejected)}`,
    };
  }
  const closed = received.closedBy === null ? '' : ` (closed by ${received.closedBy}'s marker)`;
  return {
    pass: false,
    message: () =>
      `expected a record matching ${wanted}, none of ${of}${closed} does:\n${quoteRecords(received.records)}${unreadable}`,
  };
}

const CONTEXT_BYTES = 40;
const encoder = new TextEncoder();
const decoder = new TextDecoder();

/** `.not.toHoldText(secret)` on `await audit.bytes()`: every file's raw bytes, then every parsed record's fields. */
export function judgeHoldsText(received: unknown, text: string): MatcherResult {
  const log = received as AuditLogBytes;
  if (typeof text !== 'string' || text.length === 0 || !Array.isArray(log?.files)) {
    return {
      pass: false,
      message: () => 'toHoldText takes `await audit.bytes()` and a non-empty string',
    };
  }
  const needle = encoder.encode(text);
  const shown = masked(text);
  const where: string[] = [];
  for (const file of log.files) {
    const at = Buffer.from(file.bytes).indexOf(needle);
    if (at === -1) continue;
    const from = Math.max(0, at - CONTEXT_BYTES);
    const around = decoder.decode(file.bytes.subarray(from, at + needle.length + CONTEXT_BYTES));
    where.push(`  ${file.name} at byte ${at}: ${JSON.stringify(around.replaceAll(text, shown))}`);
  }
  for (const record of log.records) {
    const fields = [record.queryText, record.user, record.object, record.database];
    if (fields.some((field) => field.includes(text)))
      where.push(`  a record: ${formatRecord(record).replaceAll(text, shown)}`);
  }
  const files = `${log.files.length} log file(s) (${log.files.map((f) => f.name).join(', ') || 'none'})`;
  return where.length > 0
    ? {
        pass: true,
        message: () => `expected ${shown} in no log byte and no record, found it in:\n${where.join('\n')}`,
      }
    : {
        pass: false,
        message: () => `expected ${shown} in the log, but none of ${files} and no record holds it`,
      };
}

/** The secret as a message may show it: its first two characters and its length. */
export const masked = (text: string): string => `"${text.slice(0, 2)}…" (${text.length} characters)`;

function asRunMeasurement(received: unknown): RunMeasurement | null {
  const value = received as Partial<RunMeasurement> & Partial<Measurement>;
  if (value?.measurement && value.policy) return value as RunMeasurement;
  // A bare measurement (results.json's) is judged with the bench's defaults: inconclusive fails, interference warns.
  if (typeof value?.overheadPct === 'number')
    return {
      measurement: value as Measurement,
      policy: { inconclusive: 'fail', interference: 'warn' },
      where: 'the measurement',
    };
  return null;
}

/**
 * `toCostAtMostPct(limitPct)` on `(await bench.run()).measurement`: the interval judged against `limitPct` by the
 * bench's own rules (decideVerdict, then limitFailure: interference, an idle plugin, the p99 limit, the run's
 * `inconclusive` policy).
 */
export function judgeCost(received: unknown, limitPct: number): MatcherResult {
  const run = asRunMeasurement(received);
  if (!run) {
    return { pass: false, message: () => 'toCostAtMostPct takes `(await bench.run()).measurement`' };
  }
  const { measurement, policy, where } = run;
  const decided =
    measurement.verdict === 'idle'
      ? { verdict: measurement.verdict, reason: measurement.reason }
      : decideVerdict({
          estimatePct: measurement.overheadPct,
          ci95: measurement.overheadCi95,
          limitPct,
          ...(measurement.noiseFloorPct !== null && { noiseFloorPct: measurement.noiseFloorPct }),
        });
  const judged: Measurement = { ...measurement, limitPct, verdict: decided.verdict, reason: decided.reason };
  const failure = limitFailure(judged, policy, where);
  return failure === null
    ? { pass: true, message: () => `expected ${where} to cost more than ${limitPct}%: ${decided.reason}` }
    : { pass: false, message: () => failure };
}

export interface AuditbenchMatchers<R = unknown> {
  /** A record since the mark matches the pattern; `.not` also needs the records closed by an audited account. */
  toHaveLogged(pattern: RecordPattern): R;
  /** Some log byte (rotated files included) or parsed record holds the text; use `.not` for a secret. */
  toHoldText(text: string): R;
  /** The measurement's interval is within `limitPct` by the bench's verdict rules. */
  toCostAtMostPct(limitPct: number): R;
}

declare module 'vitest' {
  // biome-ignore lint/suspicious/noExplicitAny: the declaration merges with Vitest's, whose default is any
  interface Matchers<T = any> extends AuditbenchMatchers<T> {}
}

/** What `expect.extend` takes: `this.isNot` tells `.not` (a "not logged" needs the closing marker). */
export const auditbenchMatchers = {
  toHaveLogged(this: { isNot?: boolean }, received: unknown, pattern: RecordPattern): MatcherResult {
    return judgeLogged(received, pattern, this.isNot === true);
  },
  toHoldText(received: unknown, text: string): MatcherResult {
    return judgeHoldsText(received, text);
  },
  toCostAtMostPct(received: unknown, limitPct: number): MatcherResult {
    return judgeCost(received, limitPct);
  },
};
