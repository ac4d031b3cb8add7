import path from 'node:path';
import { proseLines } from './doc-checks.ts';

// Checks of what a doc points at or repeats, as pure functions of its text (as doc-checks.ts's): an anchor no heading
// makes, a README section that is not there, a constant that prose states otherwise than the code. Each returns one
// line per problem: `<doc>:<line>: <what>: <why>`.

/** GitHub's anchor for a heading: lower case, punctuation out (hyphens and underscores stay), each space a hyphen. */
export function headingSlug(heading: string): string {
  return heading
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\s_-]/gu, '')
    .replace(/\s/g, '-');
}

/** The headings of a text, outside fenced blocks, without their `#`s. */
export function headings(text: string): string[] {
  return proseLines('', text).flatMap((l) => {
    const m = /^#{1,6}\s+(.+?)\s*#*\s*$/.exec(l.text);
    return m?.[1] ? [m[1]] : [];
  });
}

/** Every anchor a text's headings make; a repeated heading's later anchors take -1, -2, as GitHub numbers them. */
export function anchors(text: string): Set<string> {
  const seen = new Map<string, number>();
  const out = new Set<string>();
  for (const h of headings(text)) {
    const slug = headingSlug(h);
    const n = seen.get(slug) ?? 0;
    out.add(n === 0 ? slug : `${slug}-${n}`);
    seen.set(slug, n + 1);
  }
  return out;
}

/**
 * Kind 5: a link whose `#anchor` no heading of its target makes: `[x](other.md#a)` or `[x](#a)`. `read` gives a
 * doc's text by its root-relative path, or null when it is no Markdown file here (its anchors are not checked).
 */
export function brokenAnchors(doc: string, text: string, read: (file: string) => string | null): string[] {
  return proseLines(doc, text).flatMap((l) =>
    [...l.text.matchAll(/\]\(([^)\s]*)#([^)\s]+)\)/g)].flatMap((m) => {
      const [, target = '', anchor = ''] = m;
      if (/^[a-z]+:/i.test(target)) return [];
      const file =
        target === '' ? doc : path.posix.normalize(path.posix.join(path.posix.dirname(doc), target));
      const other = file === doc ? text : read(file);
      if (other === null || !file.endsWith('.md')) return [];
      return anchors(other).has(anchor)
        ? []
        : [`${doc}:${l.line}: ${target}#${anchor}: no heading of ${file} makes it`];
    }),
  );
}

/** Kind 6: prose that sends the reader to a README section by name (`README, "Targets"`) that the README lacks. */
export function missingReadmeSections(doc: string, text: string, readme: string): string[] {
  const sections = headings(readme).map((h) => h.toLowerCase());
  return proseLines(doc, text).flatMap((l) =>
    [...l.text.matchAll(/README(?:\.md)?(?:'s)?,? ["“]([^"”]+)["”]/g)].flatMap((m) => {
      const name = m[1] ?? '';
      return sections.includes(name.toLowerCase())
        ? []
        : [`${doc}:${l.line}: README, "${name}": the README has no such section`];
    }),
  );
}

/** A constant the prose repeats: how to find each statement of it, and the value the code holds. */
export interface RepeatedConstant {
  name: string;
  /** Its first group is the stated value, as digits or a number word. */
  stated: RegExp;
  value: number;
}

const WORDS = ['zero', 'one', 'two', 'three', 'four', 'five', 'six', 'seven', 'eight', 'nine', 'ten'];
const asNumber = (said: string) => (/^\d+$/.test(said) ? Number(said) : WORDS.indexOf(said.toLowerCase()));

/** Kind 7: prose that states a constant with another value than the code's. */
export function contradictedConstants(doc: string, text: string, constants: RepeatedConstant[]): string[] {
  return proseLines(doc, text).flatMap((l) =>
    constants.flatMap((c) =>
      [...l.text.matchAll(new RegExp(c.stated.source, `${c.stated.flags.replace('g', '')}g`))].flatMap(
        (m) => {
          const said = asNumber(m[1] ?? '');
          return said === c.value ? [] : [`${doc}:${l.line}: "${m[0]}": ${c.name} is ${c.value} in the code`];
        },
      ),
    ),
  );
}
