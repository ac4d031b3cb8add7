import { expect, test } from 'vitest';
import { endedModules } from './ended-modules.ts';

const module = (moduleId: string, shard: string, project = 'suites') => ({
  moduleId,
  shard,
  project: { name: project },
});

test('merged shards of one file: Vitest names the last blob twice, the modules that ended are both', () => {
  const shard1 = module('/p/suites/matrix.suite.ts', '1/2');
  const shard2 = module('/p/suites/matrix.suite.ts', '2/2');
  // What Vitest 4.1 hands onTestRunEnd after --merge-reports: one module per blob, both the last one merged.
  expect(endedModules([shard2, shard2], [shard1, shard2]).map((m) => m.shard)).toEqual(['1/2', '2/2']);
});

test('an ordinary run is left as Vitest gave it, in its order', () => {
  const a = module('/p/suites/a.suite.ts', '-');
  const b = module('/p/suites/b.suite.ts', '-');
  const unit = module('/p/suites/a.suite.ts', '-', 'unit');
  expect(endedModules([a, unit, b], [b, unit, a])).toEqual([a, unit, b]);
});

test('a module that never ended (a cancelled run) stays as Vitest gave it', () => {
  const a = module('/p/suites/a.suite.ts', '-');
  const b = module('/p/suites/b.suite.ts', '-');
  expect(endedModules([a, b], [a])).toEqual([a, b]);
  expect(endedModules([a, b], [])).toEqual([a, b]);
});
