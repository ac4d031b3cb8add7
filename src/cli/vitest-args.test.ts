import { expect, test } from 'vitest';
import { vitestArgsProblem } from './vitest-args.ts';

// Vitest's own parser decides; these pin that it was found (a Vitest upgrade that moves it fails here, not silently).
test.for([
  [['--bogus'], "unknown option '--bogus'"],
  [['--projet', 'unit'], "unknown option '--projet' (did you mean --project?)"],
  [['--testNamePatern=x'], "unknown option '--testNamePatern' (did you mean --testNamePattern?)"],
  [['--no-colr'], "unknown option '--no-colr' (did you mean --color?)"],
  [['-x'], "unknown option '-x'"],
  [['--shard'], '--shard needs a value'],
] as const)('%j is refused: %s', async ([args, problem]) => {
  expect(await vitestArgsProblem([...args])).toBe(problem);
});

test.for<string[]>([
  [],
  ['-t', 'server_audit'],
  ['--project', 'unit', 'src/cli'],
  ['--reporter=blob', '--outputFile.blob=b.json', '--no-color', '--bail', '1'],
  ['--shard=1/2', '--test-name-pattern', 'x'],
  // Vitest's own help is Vitest's to print.
  ['--help'],
  ['--bogus', '-h'],
])('%j is what Vitest takes', async (args) => {
  expect(await vitestArgsProblem(args)).toBeNull();
});
