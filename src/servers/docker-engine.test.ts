import { expect, test } from 'vitest';
import { labels, staleContainers } from './docker-engine.ts';

test('only containers of this host whose owner is gone are stale', () => {
  const owned = (Id: string, pid: string, host = 'ci-1') => ({
    Id,
    Labels: { [labels.auditbench]: '1', [labels.run]: pid, [labels.host]: host },
  });
  const found = [
    owned('dead', '101'),
    owned('alive', '202'),
    owned('other-host', '101', 'laptop'),
    owned('no-pid', 'x'),
    // Built from an auditbench image but not started by the harness: the image's label only.
    { Id: 'image-label-only', Labels: { [labels.auditbench]: '1' } },
  ];
  expect(staleContainers(found, 'ci-1', (pid) => pid === 202)).toEqual(['dead']);
});
