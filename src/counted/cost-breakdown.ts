import path from 'node:path';
import { type CallgrindDump, splitCrossing, splitKey } from './callgrind-dump.ts';
import { pairArms } from './counted-stats.ts';

/** A counted arm's dump and how many transactions it held. */
export interface DumpedArm {
  kind: 'off' | 'on';
  transactions: number;
  dump: CallgrindDump;
}

/** One function whose own instructions the subject adds. */
export interface AddedFunction {
  /** The object file's name (e.g. server_audit.so, mariadbd, libc.so.6). */
  object: string;
  fn: string;
  /** Self instructions per transaction, on minus off, mean over pairs. */
  addedPerTx: number;
}

/** Self instructions per transaction the subject adds in each object file. */
export interface AddedByObject {
  object: string;
  addedPerTx: number;
}

/** A function of the plugin's library that the server calls, and what each transaction spends inside it. */
export interface EntryPoint {
  fn: string;
  callsPerTx: number;
  /** Inclusive instructions per transaction in the on arms (the plugin's own code and what it calls). */
  inclusivePerTx: number;
  /** The same in the off arms: a plugin switched off is still called, and returns early. */
  offInclusivePerTx: number;
}

/** Calls into libc's send family per transaction: how a syslog() reaches its receiver, counted where /proc can't. */
export interface SendCalls {
  offPerTx: number;
  onPerTx: number;
  addedPerTx: number;
}

export interface CostBreakdown {
  topFunctions: AddedFunction[];
  byObject: AddedByObject[];
  entryPoints: EntryPoint[];
  /** Null when no arm called the send family (a server reached over a socket calls it for every reply). */
  sendCalls: SendCalls | null;
}

// glibc's send(2) and sendto(2) wrappers under the names callgrind may give them (the public name, or the internal
// alias syslog() calls). /proc/<pid>/task/<tid>/io counts only the read/write family, so a syslog record is one of
// these calls, not a write.
const SEND_FAMILY = /^(__libc_send|__send|send|__libc_sendto|__sendto|sendto)$/;
const isLibc = (object: string) => /^libc[.-]/.test(objectName(object));

/** Calls into the send family per transaction, off and on, mean over the arms of each kind. */
export function sendCallsOf(arms: readonly DumpedArm[]): SendCalls | null {
  const perTx = (kind: 'off' | 'on') => {
    const chosen = arms.filter((a) => a.kind === kind);
    let sum = 0;
    for (const arm of chosen) {
      let calls = 0;
      for (const [key, n] of arm.dump.callsTo) {
        const { object, fn } = splitKey(key);
        if (isLibc(object) && SEND_FAMILY.test(fn)) calls += n;
      }
      sum += calls / arm.transactions;
    }
    return chosen.length > 0 ? sum / chosen.length : 0;
  };
  const [offPerTx, onPerTx] = [perTx('off'), perTx('on')];
  if (offPerTx === 0 && onPerTx === 0) return null;
  return { offPerTx, onPerTx, addedPerTx: onPerTx - offPerTx };
}

const objectName = (object: string): string => (object === '' ? '(unknown)' : path.basename(object));

function meanOver<T>(pairs: T[], value: (pair: T) => Map<string, number>): Map<string, number> {
  const sum = new Map<string, number>();
  for (const pair of pairs) for (const [k, v] of value(pair)) sum.set(k, (sum.get(k) ?? 0) + v);
  for (const [k, v] of sum) sum.set(k, v / pairs.length);
  return sum;
}

/** What on adds per transaction to each key of a per-arm map, for one pair. */
function addedIn(off: DumpedArm, on: DumpedArm, read: (arm: DumpedArm) => Map<string, number>) {
  const out = new Map<string, number>();
  for (const [k, v] of read(on)) out.set(k, v / on.transactions);
  for (const [k, v] of read(off)) out.set(k, (out.get(k) ?? 0) - v / off.transactions);
  return out;
}

const byFunction = (arm: DumpedArm) => arm.dump.selfIr;

function byObjectOf(arm: DumpedArm): Map<string, number> {
  const out = new Map<string, number>();
  for (const [key, ir] of arm.dump.selfIr) {
    const object = objectName(splitKey(key).object);
    out.set(object, (out.get(object) ?? 0) + ir);
  }
  return out;
}

/** Calls from outside the plugin's library into it, by the function entered: count and inclusive cost. */
function entriesOf(arm: DumpedArm, soname: string): Map<string, { calls: number; ir: number }> {
  const out = new Map<string, { calls: number; ir: number }>();
  for (const [key, call] of arm.dump.crossings) {
    const { fromObject, toObject, toFn } = splitCrossing(key);
    if (objectName(toObject) !== soname || objectName(fromObject) === soname) continue;
    const seen = out.get(toFn) ?? { calls: 0, ir: 0 };
    out.set(toFn, { calls: seen.calls + call.calls, ir: seen.ir + call.inclusiveIr });
  }
  return out;
}

/**
 * Where the added instructions go: the functions whose self cost the subject raises most per transaction (top
 * `top`), the same summed by object file, and the plugin library's entry points (when `soname` is given).
 */
export function costBreakdown(arms: readonly DumpedArm[], soname: string | null, top = 10): CostBreakdown {
  const pairs = pairArms(arms);
  const functions = meanOver(pairs, ([off, on]) => addedIn(off, on, byFunction));
  const topFunctions = [...functions]
    .map(([key, addedPerTx]) => {
      const { object, fn } = splitKey(key);
      return { object: objectName(object), fn, addedPerTx };
    })
    .sort((a, b) => b.addedPerTx - a.addedPerTx)
    .slice(0, top);
  const byObject = [...meanOver(pairs, ([off, on]) => addedIn(off, on, byObjectOf))]
    .map(([object, addedPerTx]) => ({ object, addedPerTx }))
    .sort((a, b) => Math.abs(b.addedPerTx) - Math.abs(a.addedPerTx));
  const entryPoints = soname ? entryPointsOf(arms, soname) : [];
  return { topFunctions, byObject, entryPoints, sendCalls: sendCallsOf(arms) };
}

function entryPointsOf(arms: readonly DumpedArm[], soname: string): EntryPoint[] {
  const perTx = (kind: 'off' | 'on') => {
    const chosen = arms.filter((a) => a.kind === kind);
    const sum = new Map<string, { calls: number; ir: number }>();
    for (const arm of chosen)
      for (const [fn, e] of entriesOf(arm, soname)) {
        const seen = sum.get(fn) ?? { calls: 0, ir: 0 };
        sum.set(fn, {
          calls: seen.calls + e.calls / arm.transactions,
          ir: seen.ir + e.ir / arm.transactions,
        });
      }
    for (const [fn, e] of sum) sum.set(fn, { calls: e.calls / chosen.length, ir: e.ir / chosen.length });
    return sum;
  };
  const on = perTx('on');
  const off = perTx('off');
  return [...on]
    .map(([fn, e]) => ({
      fn,
      callsPerTx: e.calls,
      inclusivePerTx: e.ir,
      offInclusivePerTx: off.get(fn)?.ir ?? 0,
    }))
    .sort((a, b) => b.inclusivePerTx - a.inclusivePerTx);
}
