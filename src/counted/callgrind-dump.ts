/**
 * Reads one callgrind dump (valgrind's callgrind output format, as `--dump-before` writes it): the totals, each
 * function's self cost by object file, and the calls that cross from one object file into another (the inclusive
 * cost of entering a plugin's library). Only the first event (Ir, instructions executed) is kept.
 */
export interface CallgrindDump {
  /** The events the dump counts, e.g. ['Ir']. */
  events: string[];
  /** Instructions in the dump (its `totals:` or `summary:` line; else the sum of self costs). */
  totalIr: number;
  /** Self instructions by object file and function: `${object}\t${function}`. */
  selfIr: Map<string, number>;
  /** Calls from a function in one object file into a function of another: count and inclusive instructions. */
  crossings: Map<string, { calls: number; inclusiveIr: number }>;
  /** Calls into each function from anywhere (its own object file included), by `${object}\t${function}`. */
  callsTo: Map<string, number>;
}

/** Splits the key selfIr and crossings use. */
export const splitKey = (key: string): { object: string; fn: string } => {
  const [object = '', fn = ''] = key.split('\t');
  return { object, fn };
};
export const fnKey = (object: string, fn: string): string => `${object}\t${fn}`;

type NameKind = 'ob' | 'fl' | 'fn';

/** `(12) name` defines id 12, `(12)` refers to it, `name` alone is uncompressed. */
function nameOf(value: string, table: Map<string, string>): string {
  const match = /^\((\d+)\)\s*(.*)$/.exec(value);
  if (!match) return value;
  const [, id = '', name = ''] = match;
  if (name !== '') {
    table.set(id, name);
    return name;
  }
  const known = table.get(id);
  if (known === undefined) throw new Error(`callgrind dump: name (${id}) is used before it is defined`);
  return known;
}

const add = (map: Map<string, number>, key: string, value: number) =>
  map.set(key, (map.get(key) ?? 0) + value);

export function parseCallgrindDump(text: string): CallgrindDump {
  const tables: Record<NameKind, Map<string, string>> = { ob: new Map(), fl: new Map(), fn: new Map() };
  let events: string[] = [];
  let positions = 1;
  let declaredTotal: number | null = null;
  let object = '';
  let fn = '';
  let calledObject: string | null = null;
  let calledFn = '';
  // Set by `calls=`: the next cost line is that call's inclusive cost, not the caller's own.
  let pendingCall: number | null = null;
  const selfIr = new Map<string, number>();
  const crossings = new Map<string, { calls: number; inclusiveIr: number }>();
  const callsTo = new Map<string, number>();

  for (const raw of text.split('\n')) {
    const line = raw.trim();
    if (line === '' || line.startsWith('#')) continue;
    const eq = line.indexOf('=');
    const colon = line.indexOf(':');
    const key = eq > 0 && /^[a-z]+$/.test(line.slice(0, eq)) ? line.slice(0, eq) : null;
    if (key !== null) {
      const value = line.slice(eq + 1);
      if (key === 'ob') object = nameOf(value, tables.ob);
      else if (key === 'fn') {
        fn = nameOf(value, tables.fn);
        calledObject = null;
      } else if (key === 'fl' || key === 'fi' || key === 'fe' || key === 'cfi' || key === 'cfl')
        nameOf(value, tables.fl);
      else if (key === 'cob') calledObject = nameOf(value, tables.ob);
      else if (key === 'cfn') calledFn = nameOf(value, tables.fn);
      else if (key === 'calls') pendingCall = Number(value.split(/\s+/)[0]);
      continue;
    }
    if (colon > 0 && /^[a-z]+$/.test(line.slice(0, colon))) {
      const header = line.slice(0, colon);
      const value = line.slice(colon + 1).trim();
      if (header === 'events') events = value.split(/\s+/);
      else if (header === 'positions') positions = value.split(/\s+/).length;
      // `totals:` closes the file and counts everything; `summary:` in the header may be a little short of it.
      else if (header === 'totals' || (header === 'summary' && declaredTotal === null))
        declaredTotal = Number(value.split(/\s+/)[0] ?? 0);
      continue;
    }
    // A cost line: positions, then one count per event (missing counts are 0).
    const fields = line.split(/\s+/);
    const ir = Number(fields[positions] ?? 0);
    if (!Number.isFinite(ir)) throw new Error(`callgrind dump: cannot read the cost line '${line}'`);
    if (pendingCall !== null) {
      const target = calledObject ?? object;
      add(callsTo, fnKey(target, calledFn), pendingCall);
      if (target !== object) {
        const crossing = `${object}\t${fn}\t${target}\t${calledFn}`;
        const seen = crossings.get(crossing) ?? { calls: 0, inclusiveIr: 0 };
        crossings.set(crossing, { calls: seen.calls + pendingCall, inclusiveIr: seen.inclusiveIr + ir });
      }
      pendingCall = null;
      calledObject = null;
      continue;
    }
    add(selfIr, fnKey(object, fn), ir);
  }
  if (events.length === 0)
    throw new Error('callgrind dump: no `events:` line; is this a callgrind output file?');
  let summed = 0;
  for (const ir of selfIr.values()) summed += ir;
  return { events, totalIr: declaredTotal ?? summed, selfIr, crossings, callsTo };
}

/** A crossing's key split back: caller object and function, callee object and function. */
export function splitCrossing(key: string): {
  fromObject: string;
  fromFn: string;
  toObject: string;
  toFn: string;
} {
  const [fromObject = '', fromFn = '', toObject = '', toFn = ''] = key.split('\t');
  return { fromObject, fromFn, toObject, toFn };
}
