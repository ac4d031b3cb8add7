import { readFileSync } from 'node:fs';
import { expect, test } from 'vitest';
import { settingNames } from './setting-names.ts';

test("the names the plugin's env takes are docs/settings.md's table, and AUDITBENCH_PLUGINS_ONLY", () => {
  const doc = readFileSync(new URL('../../docs/settings.md', import.meta.url), 'utf8');
  const theirs = doc.slice(0, doc.indexOf('## Set by auditbench for its own processes'));
  const table = [...theirs.matchAll(/^\| `(AUDITBENCH_[A-Z_]+)` /gm)].map((m) => m[1]);
  expect([...settingNames].sort()).toEqual([...table, 'AUDITBENCH_PLUGINS_ONLY'].sort());
});
