import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, test } from 'vitest';
import { HISTORY_WINDOW } from '../../src/history/window.ts';
import { DEFAULT_MAX_OVERHEAD_PCT } from '../../src/plugins/profile.ts';
import {
  anchors,
  brokenAnchors,
  contradictedConstants,
  headingSlug,
  missingReadmeSections,
  type RepeatedConstant,
} from './doc-pointers.ts';
import { filesUnder, root } from './source-graph.ts';

// Where a doc sends its reader, and the constants its prose repeats, are true of the repository today. The
// shipped-docs test checks that a link's file exists; these check the part after `#`, the README sections named in
// prose, and the numbers prose states beside the code's.
const docs = [
  'README.md',
  'ARCHITECTURE.md',
  ...filesUnder('docs', (f) => /^docs\/[^/]+\.md$/.test(f)),
  ...filesUnder('examples', (f) => f.endsWith('.md')),
];
const text = (doc: string) => readFileSync(path.join(root, doc), 'utf8');
const read = (file: string) => (existsSync(path.join(root, file)) ? text(file) : null);
/** `doc` with `line` put after its first line, as docs-truth.test.ts plants its false lines. */
const planted = (doc: string, line: string) => text(doc).replace('\n', `\n${line}\n`);

const constants: RepeatedConstant[] = [
  { name: 'DEFAULT_MAX_OVERHEAD_PCT', stated: /default limit is (\d+)%/i, value: DEFAULT_MAX_OVERHEAD_PCT },
  {
    name: 'HISTORY_WINDOW (the entries pooled)',
    stated: /last (\w+) (?:base-branch )?entries/,
    value: HISTORY_WINDOW,
  },
];

describe('anchors', () => {
  test.for([
    [
      'Where servers run: targets, images, and supplying plugins',
      'where-servers-run-targets-images-and-supplying-plugins',
    ],
    [
      'McAfee/Trellix AUDIT (`libaudit_plugin.so`) — `src/profiles/mcafee-audit.ts`',
      'mcafeetrellix-audit-libaudit_pluginso--srcprofilesmcafee-auditts',
    ],
    ['Install scripts (npm 11 and later)', 'install-scripts-npm-11-and-later'],
  ])('%s → #%s', ([heading, slug]) => {
    expect(headingSlug(heading ?? '')).toBe(slug);
  });

  test('a repeated heading’s later anchors are numbered, and a fenced `#` line is no heading', () => {
    expect([...anchors('# A\n## B\n```sh\n# not one\n```\n## B\n')]).toEqual(['a', 'b', 'b-1']);
  });

  test('every anchor a doc links to is made by a heading of its target', () => {
    expect(docs.flatMap((doc) => brokenAnchors(doc, text(doc), read))).toEqual([]);
  });

  test('a planted anchor that no heading makes is named, with its line', () => {
    const copy = planted(
      'docs/reports.md',
      'See [targets](targets.md#a-plugin-you-supply) and [below](#no-such-part).',
    );
    expect(brokenAnchors('docs/reports.md', copy, read)).toEqual([
      'docs/reports.md:2: targets.md#a-plugin-you-supply: no heading of docs/targets.md makes it',
      'docs/reports.md:2: #no-such-part: no heading of docs/reports.md makes it',
    ]);
  });
});

describe('README sections named in prose', () => {
  test('every README section a doc names by its title is one the README has', () => {
    expect(docs.flatMap((doc) => missingReadmeSections(doc, text(doc), text('README.md')))).toEqual([]);
  });

  test('a planted pointer to a missing section is named; one to a real section is not', () => {
    const copy = planted(
      'docs/plugins.md',
      'Use the external target (README, "Targets"); see README, "Measure".',
    );
    expect(missingReadmeSections('docs/plugins.md', copy, text('README.md'))).toEqual([
      'docs/plugins.md:2: README, "Targets": the README has no such section',
    ]);
  });
});

describe('constants the prose repeats', () => {
  test('every statement of the default limit and of the pooled history entries agrees with the code', () => {
    expect(docs.flatMap((doc) => contradictedConstants(doc, text(doc), constants))).toEqual([]);
  });

  test('the scan finds the statements the docs make today', () => {
    const found = (doc: string, c: RepeatedConstant) =>
      contradictedConstants(doc, text(doc), [{ ...c, value: -1 }]).length;
    expect(found('README.md', constants[0] as RepeatedConstant)).toBeGreaterThan(0);
    expect(found('docs/reports-and-gate.md', constants[1] as RepeatedConstant)).toBeGreaterThan(0);
  });

  test('a planted contradiction is named, with the code’s value', () => {
    const copy = planted('docs/gate.md', 'The default limit is 50%, against the last three entries.');
    expect(contradictedConstants('docs/gate.md', copy, constants)).toEqual([
      `docs/gate.md:2: "default limit is 50%": DEFAULT_MAX_OVERHEAD_PCT is ${DEFAULT_MAX_OVERHEAD_PCT} in the code`,
      `docs/gate.md:2: "last three entries": HISTORY_WINDOW (the entries pooled) is ${HISTORY_WINDOW} in the code`,
    ]);
  });
});
