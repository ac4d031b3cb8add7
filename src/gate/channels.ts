// The gate's two channels: the wall clock (base beside head, src/gate/verdict.ts) and the counted one (the
// instructions per transaction the head adds over the base under callgrind, src/counted). Pure; unit tested in
// channels.test.ts. docs/gate.md explains the rules.
import type { Ci95Pct } from '../stats/paired-overhead.ts';
import type { BaseHeadVerdict } from './verdict.ts';

export interface CountedVerdict {
  verdict: 'pass' | 'fail' | 'inconclusive';
  /** Instructions per transaction, head over base, in percent: positive is more work. */
  risePct: number;
  ci95: Ci95Pct | null;
  reason: string;
}

/** What the head's counted rise says against the allowed counted rise (the configuration's `maxCountedRisePp`). */
export function judgeCountedRise(
  figure: { pct: number | null; pctCi95: Ci95Pct | null },
  maxRisePp: number,
): CountedVerdict {
  const risePct = figure.pct ?? 0;
  const ci95 = figure.pctCi95;
  const measured = `counted: head runs ${risePct >= 0 ? '+' : '−'}${Math.abs(risePct).toFixed(2)}% instructions per transaction${ci95 ? ` (95% CI ${ci95[0].toFixed(2)} to ${ci95[1].toFixed(2)})` : ''}`;
  const allowed = `the allowed ${maxRisePp} points`;
  if (ci95 === null) return { verdict: 'inconclusive', risePct, ci95, reason: `${measured}, no interval` };
  if (ci95[0] > maxRisePp) return { verdict: 'fail', risePct, ci95, reason: `${measured}, above ${allowed}` };
  if (ci95[1] < maxRisePp) return { verdict: 'pass', risePct, ci95, reason: `${measured}, below ${allowed}` };
  return { verdict: 'inconclusive', risePct, ci95, reason: `${measured}, straddles ${allowed}` };
}

/**
 * Options whose cost lies where counted instructions cannot see it: where the log goes (a file path, syslog, a
 * table), how it is buffered, flushed or synced. A counted no-change says nothing about them.
 */
const UNSEEN = /output_type|syslog|log_output|sync|flush|buffer|file_path|filename|_file$/i;

export function unseenByCounts(differences: readonly string[]): string[] {
  return differences.map((d) => /^[\w.-]+/.exec(d)?.[0] ?? d).filter((name) => UNSEEN.test(name));
}

export type Channel = 'wall clock' | 'counts' | 'both';

/** A channel that gave no verdict: why, in one line ("not counted: …", "no wall clock: …"). */
export interface NoVerdict {
  reason: string;
}

export interface TwoChannelVerdict extends BaseHeadVerdict {
  decidedBy: Channel;
  /** The other channel gave no verdict (not counted, or the wall clock failed): the one named decided alone. */
  alone?: true;
  wallClock: BaseHeadVerdict | ({ verdict: 'no wall clock' } & NoVerdict);
  counted: CountedVerdict | ({ verdict: 'not counted' } & NoVerdict);
}

const decidedLine = (decidedBy: Channel, alone: boolean) =>
  `decided by ${decidedBy === 'both' ? 'both channels' : `the ${decidedBy}`}${alone ? ' alone' : ''}`;

/**
 * The gate's verdict from both channels. Either one's decisive failure fails. Both passing pass. An inconclusive
 * wall clock is settled by a decisive count, a pass only where the change touches nothing counts cannot see; an
 * inconclusive count leaves the wall clock's verdict standing.
 */
export function combineChannels(
  wall: BaseHeadVerdict,
  counted: CountedVerdict | { verdict: 'not counted'; reason: string },
  differences: readonly string[],
): TwoChannelVerdict {
  const both = { wallClock: wall, counted };
  const say = (verdict: TwoChannelVerdict['verdict'], decidedBy: Channel, note = '') => ({
    ...wall,
    ...both,
    verdict,
    decidedBy,
    reason: `${wall.reason}; ${counted.reason}${note}; ${decidedLine(decidedBy, false)}`,
  });
  if (counted.verdict === 'not counted')
    return {
      ...say(wall.verdict, 'wall clock'),
      alone: true as const,
      reason: `${wall.reason}; ${counted.reason}; ${decidedLine('wall clock', true)}`,
    };
  if (wall.verdict === 'fail' && counted.verdict === 'fail') return say('fail', 'both');
  if (wall.verdict === 'fail') return say('fail', 'wall clock');
  if (counted.verdict === 'fail') return say('fail', 'counts');
  if (wall.verdict === 'pass' && counted.verdict === 'pass') return say('pass', 'both');
  if (wall.verdict === 'pass') return say('pass', 'wall clock');
  // The wall clock is inconclusive from here on.
  if (counted.verdict === 'pass') {
    const unseen = unseenByCounts(differences);
    if (unseen.length > 0)
      return say(
        'inconclusive',
        'wall clock',
        ` (counts cannot see what ${unseen.join(', ')} costs: where the log goes, how it is buffered or synced)`,
      );
    return say('pass', 'counts');
  }
  return say('inconclusive', 'wall clock');
}

/**
 * The wall clock gave no verdict (its measurement failed; `failed` says how, in one line): the count's verdict stands
 * alone, as the wall clock's does when nothing was counted. Nothing measured the throughput, so there is no change
 * in percent or interval of it.
 */
export function countsAlone(
  failed: string,
  counted: CountedVerdict,
  names: string,
): TwoChannelVerdict & { verdict: CountedVerdict['verdict'] } {
  const wallClock = { verdict: 'no wall clock' as const, reason: `no wall clock: ${failed}` };
  return {
    verdict: counted.verdict,
    changePct: Number.NaN,
    ci95: null,
    decidedBy: 'counts',
    alone: true,
    wallClock,
    counted,
    reason: `${names}: ${wallClock.reason}; ${counted.reason}; ${decidedLine('counts', true)}`,
  };
}
