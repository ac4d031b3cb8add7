import { type Claim, type Claims, type EventKind, eventKinds } from './kinds.ts';
import type { FoundMarkers } from './markers.ts';

/**
 * What the client saw of one marker: the answer it expected (`acked`: success, or the error a failing kind is meant
 * to get), another answer (`refused`), or none because the connection died (`unanswered`, e.g. at a crash).
 */
export type Outcome = 'acked' | 'refused' | 'unanswered';

export interface SentMarker {
  kind: EventKind;
  /** n for statements and failed logins, the connection id for a connect (negative when it never got one). */
  id: number;
  outcome: Outcome;
  /** The unexpected answer, for `refused` and `unanswered`. */
  detail?: string;
}

/** One kind of one phase: what was sent, what the log holds, and whether that is what the configuration claims. */
export interface KindCount {
  kind: EventKind;
  claim: Claim;
  sent: number;
  acked: number;
  refused: number;
  unanswered: number;
  /** Distinct sent markers found in the log (for an `absent` kind: every record of the kind found). */
  logged: number;
  /** Acked markers the log does not hold. */
  lost: number;
  /** Markers held by more than one record. */
  duplicated: number;
  /** Markers of this phase in the log that the client never sent: should not exist. */
  strays: number;
  /** Unanswered markers that were logged anyway (the server got them before it died). */
  unansweredLogged: number;
  ok: boolean;
}

interface KindInput {
  kind: EventKind;
  claim: Claim;
  /** Every marker the client sent in the phase, of all kinds. */
  sent: SentMarker[];
  /** This kind's records in the log: marker id → how many records hold it. */
  found: Map<number, number>;
  lossIsFinding: boolean;
}

function countKind({ kind, claim, sent, found, lossIsFinding }: KindInput): KindCount {
  const mine = sent.filter((s) => s.kind === kind);
  const ids = new Set(mine.map((s) => s.id));
  const of = (outcome: Outcome) => mine.filter((s) => s.outcome === outcome);
  const acked = of('acked');
  const records = [...found.values()].reduce((sum, n) => sum + n, 0);
  const logged = claim === 'absent' ? records : mine.filter((s) => found.has(s.id)).length;
  // Only a kind the configuration logs can lose a marker.
  const lost = claim === 'logged' ? acked.filter((s) => !found.has(s.id)).length : 0;
  const duplicated = [...found.values()].filter((n) => n > 1).length;
  // A connect the crash cut off before its answer has no connection id on the client's side, yet the server may
  // have logged it under one: that many records the client cannot match are those connects, not strays.
  const idless = kind === 'connect' ? of('unanswered').filter((s) => s.id < 0).length : 0;
  const strays = Math.max(0, [...found.keys()].filter((id) => !ids.has(id)).length - idless);
  const refused = of('refused').length;
  const ok =
    claim === 'unchecked' ||
    (claim === 'absent'
      ? records === 0 && refused === 0
      : (lossIsFinding || lost === 0) && duplicated === 0 && strays === 0 && refused === 0);
  return {
    kind,
    claim,
    sent: mine.length,
    acked: acked.length,
    refused,
    unanswered: of('unanswered').length,
    logged,
    lost,
    duplicated,
    strays,
    unansweredLogged: of('unanswered').filter((s) => found.has(s.id)).length,
    ok,
  };
}

/**
 * Per kind, in the order of `eventKinds`: sent, logged, lost, duplicated against the claims. With `lossIsFinding`
 * (a crash) lost markers are counted but do not fail the kind.
 */
export const countMarkers = (
  sent: SentMarker[],
  found: FoundMarkers,
  claims: Claims,
  lossIsFinding = false,
): KindCount[] =>
  eventKinds.map((kind) => countKind({ kind, claim: claims[kind], sent, found: found[kind], lossIsFinding }));

/** Why a phase's counts fail, one clause per failing kind; '' when every kind is as claimed. */
export function describeFailures(counts: KindCount[]): string {
  return counts
    .filter((c) => !c.ok)
    .map((c) => {
      if (c.claim === 'absent') return `${c.kind}: ${c.logged} records of a kind the configuration excludes`;
      const parts = [
        c.lost && `${c.lost} of ${c.acked} lost`,
        c.duplicated && `${c.duplicated} duplicated`,
        c.strays && `${c.strays} never sent`,
        c.refused && `${c.refused} refused by the server`,
      ].filter(Boolean);
      return `${c.kind}: ${parts.join(', ')}`;
    })
    .join('; ');
}
