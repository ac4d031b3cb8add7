import { describe, expect, test } from 'vitest';
import { countMarkers, describeFailures, type SentMarker } from './count.ts';
import type { Claims } from './kinds.ts';
import { emptyFound, type FoundMarkers } from './markers.ts';

const claims: Claims = {
  read: 'logged',
  write: 'logged',
  failed: 'logged',
  ddl: 'absent',
  connect: 'unchecked',
  failedLogin: 'logged',
};

function found(entries: Partial<Record<keyof FoundMarkers, [number, number][]>>): FoundMarkers {
  const f = emptyFound();
  for (const [kind, pairs] of Object.entries(entries))
    for (const [id, n] of pairs) f[kind as keyof FoundMarkers].set(id, n);
  return f;
}

const sent = (
  kind: SentMarker['kind'],
  ids: number[],
  outcome: SentMarker['outcome'] = 'acked',
): SentMarker[] => ids.map((id) => ({ kind, id, outcome }));

describe('countMarkers', () => {
  test('every marker once: ok, nothing lost', () => {
    const counts = countMarkers(
      [...sent('read', [1, 2]), ...sent('failedLogin', [1])],
      found({
        read: [
          [1, 1],
          [2, 1],
        ],
        failedLogin: [[1, 1]],
      }),
      claims,
    );
    expect(counts.find((c) => c.kind === 'read')).toMatchObject({
      sent: 2,
      acked: 2,
      logged: 2,
      lost: 0,
      duplicated: 0,
      ok: true,
    });
    expect(counts.every((c) => c.ok)).toBe(true);
    expect(describeFailures(counts)).toBe('');
  });

  test.for([
    ['a lost marker', sent('read', [1, 2]), found({ read: [[1, 1]] }), 'read: 1 of 2 lost'],
    ['a duplicated marker', sent('read', [1]), found({ read: [[1, 2]] }), 'read: 1 duplicated'],
    [
      'a marker never sent',
      sent('read', [1]),
      found({
        read: [
          [1, 1],
          [9, 1],
        ],
      }),
      'read: 1 never sent',
    ],
    [
      'an excluded kind logged',
      sent('ddl', [1]),
      found({ ddl: [[1, 1]] }),
      'ddl: 1 records of a kind the configuration excludes',
    ],
    [
      'a refused marker',
      sent('write', [1], 'refused'),
      found({ write: [[1, 1]] }),
      'write: 1 refused by the server',
    ],
  ] as const)('%s fails the kind', ([, markers, logged, why]) => {
    const counts = countMarkers([...markers], logged, claims);
    expect(describeFailures(counts)).toBe(why);
  });

  test('an unchecked kind never fails, whatever the log holds', () => {
    const counts = countMarkers(sent('connect', [7]), found({ connect: [[7, 3]] }), claims);
    expect(counts.find((c) => c.kind === 'connect')?.ok).toBe(true);
  });

  test('at a crash, lost acked markers are counted but do not fail; unanswered ones are never lost', () => {
    const markers = [...sent('read', [1, 2, 3]), ...sent('read', [4, 5], 'unanswered')];
    const counts = countMarkers(
      markers,
      found({
        read: [
          [1, 1],
          [4, 1],
        ],
      }),
      claims,
      true,
    );
    expect(counts.find((c) => c.kind === 'read')).toMatchObject({
      sent: 5,
      acked: 3,
      unanswered: 2,
      logged: 2,
      lost: 2,
      unansweredLogged: 1,
      ok: true,
    });
  });

  test('at a crash, a connect logged under an id the client never got is the unanswered connect, not a stray', () => {
    const connectLogged: Claims = { ...claims, connect: 'logged' };
    const markers = [...sent('connect', [11, 12]), ...sent('connect', [-3], 'unanswered')];
    const logged = found({
      connect: [
        [11, 1],
        [12, 1],
        [13, 1],
      ],
    });
    expect(
      countMarkers(markers, logged, connectLogged, true).find((c) => c.kind === 'connect'),
    ).toMatchObject({
      strays: 0,
      ok: true,
    });
    // Without an unanswered connect to explain it, the same record is a stray.
    const answered = countMarkers(sent('connect', [11, 12]), logged, connectLogged, true);
    expect(describeFailures(answered)).toBe('connect: 1 never sent');
  });
});
