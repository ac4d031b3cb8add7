import { describe, expect, test } from 'vitest';
import { type CountedVerdict, combineChannels, judgeCountedRise, unseenByCounts } from './channels.ts';
import type { BaseHeadVerdict } from './verdict.ts';

const wall = (verdict: BaseHeadVerdict['verdict']): BaseHeadVerdict => ({
  verdict,
  changePct: 8.4,
  ci95: [-13.4, 26],
  reason: `wall ${verdict}`,
});
const counted = (verdict: CountedVerdict['verdict']): CountedVerdict => ({
  verdict,
  risePct: 4,
  ci95: [3.8, 4.2],
  reason: `counted ${verdict}`,
});

describe('judgeCountedRise', () => {
  test.for([
    { ci: [3.8, 4.2], verdict: 'fail' },
    { ci: [-0.3, 0.4], verdict: 'pass' },
    { ci: [0.6, 1.4], verdict: 'inconclusive' },
  ] as const)('$ci against 1 point: $verdict', ({ ci, verdict }) => {
    expect(judgeCountedRise({ pct: (ci[0] + ci[1]) / 2, pctCi95: [...ci] }, 1).verdict).toBe(verdict);
  });

  test('says the rise and the limit', () => {
    expect(judgeCountedRise({ pct: 4, pctCi95: [3.8, 4.2] }, 1).reason).toBe(
      'counted: head runs +4.00% instructions per transaction (95% CI 3.80 to 4.20), above the allowed 1 points',
    );
  });
});

describe('combineChannels', () => {
  test.for([
    ['fail', 'fail', 'fail', 'both'],
    ['fail', 'pass', 'fail', 'wall clock'],
    ['pass', 'fail', 'fail', 'counts'],
    ['inconclusive', 'fail', 'fail', 'counts'],
    ['pass', 'pass', 'pass', 'both'],
    ['pass', 'inconclusive', 'pass', 'wall clock'],
    ['inconclusive', 'pass', 'pass', 'counts'],
    ['inconclusive', 'inconclusive', 'inconclusive', 'wall clock'],
  ] as const)('wall %s, counts %s: %s, decided by %s', ([w, c, verdict, decidedBy]) => {
    const v = combineChannels(wall(w), counted(c), ['server_audit_events: QUERY_DDL → QUERY_DDL,QUERY_DML']);
    expect([v.verdict, v.decidedBy]).toEqual([verdict, decidedBy]);
    expect(v.reason).toContain(`wall ${w}; counted ${c}`);
  });

  test('a counted no-change does not settle an option whose cost counts cannot see', () => {
    const v = combineChannels(wall('inconclusive'), counted('pass'), [
      'server_audit_output_type: file → syslog',
    ]);
    expect(v.verdict).toBe('inconclusive');
    expect(v.reason).toMatch(/counts cannot see what server_audit_output_type costs/);
  });

  test('without counts, the wall clock alone', () => {
    const v = combineChannels(
      wall('inconclusive'),
      { verdict: 'not counted', reason: 'not counted: restarts' },
      [],
    );
    expect([v.verdict, v.decidedBy]).toEqual(['inconclusive', 'wall clock']);
  });

  test('what counts cannot see, by option name', () => {
    expect(
      unseenByCounts([
        'server_audit_events: CONNECT → QUERY',
        'server_audit_file_path: a → b',
        'audit_json_file_sync: 0 → 1',
        'log_output: FILE → TABLE',
      ]),
    ).toEqual(['server_audit_file_path', 'audit_json_file_sync', 'log_output']);
  });
});
