import { readFileSync } from 'node:fs';
import path from 'node:path';
import { expect, test } from 'vitest';
import { failureKinds, WHEN_IT_FAILS_DOC, whereExplained } from '../../src/results/when-it-fails.ts';
import { headingSlug, headings } from './doc-pointers.ts';
import { root } from './source-graph.ts';

// Every failing verdict and refusal has an id in src/results/when-it-fails.ts, and docs/when-it-fails.md a section
// for each, whose anchor is the id: the line a report prints under a failing verdict leads to a section that exists.
const doc = readFileSync(path.join(root, WHEN_IT_FAILS_DOC), 'utf8');
const sections = headings(doc)
  .slice(1)
  .map((h) => headingSlug(h));

test('each id has its section, and each section is an id', () => {
  expect(sections.sort()).toEqual(Object.keys(failureKinds).sort());
});

test('each section says what it means and what to do', () => {
  const parts = doc.split(/^## /m).slice(1);
  for (const part of parts) {
    expect(part, part.split('\n')[0]).toContain('**What it means.**');
    expect(part, part.split('\n')[0]).toContain('**What to do.**');
  }
});

test('the line under a failing verdict names the page and each kind once; a clean pass prints none', () => {
  expect(whereExplained(['idle', 'busy', 'idle'])).toBe(
    "what it means and what to do: auditbench's docs/when-it-fails.md (#idle, #busy)",
  );
  expect(whereExplained([])).toBeNull();
});

test('the README links the page', () => {
  expect(readFileSync(path.join(root, 'README.md'), 'utf8')).toContain('(docs/when-it-fails.md)');
});
