import { expect, test } from 'vitest';
import { mdCode, mdFence, mdText, oneLine } from './markdown.ts';

// Hostile values as a pull request could give them: a run title, an option value, a branch or a history line.
test.for([
  ['a heading forged by a newline', 'x\n## auditbench gate: passed', 'x\\\\n## auditbench gate: passed'],
  ['a heading at the value’s start', '# passed', '\\# passed'],
  ['a quote, a list item, an ordered item', '> q', '\\> q'],
  ['a list item', '- item', '\\- item'],
  ['an ordered item', '12. item', '12\\. item'],
  ['a fence in a title', '```\n## forged', '\\`\\`\\`\\\\n## forged'],
  ['a script', '<script>alert(1)</script>', '\\<script\\>alert(1)\\</script\\>'],
  ['an autolink', '<https://example.invalid>', '\\<https://example.invalid\\>'],
  ['a pipe in a table cell', 'a | b', 'a \\| b'],
  [
    'emphasis, a link and an image',
    '*b* _i_ ![x](y) [l](z) [r][x]',
    '\\*b\\* \\_i\\_ ![x\\](y) [l\\](z) [r\\][x]',
  ],
  [
    'a task box or link definition at the start',
    '[x]: https://example.invalid',
    '\\[x\\]: https://example.invalid',
  ],
  ['brackets that link nothing stay', '7.3 [-24.7, 31.0] a_b_c', '7.3 [-24.7, 31.0] a_b_c'],
  ['an entity, strikethrough and math', '&lt; ~~s~~ $x$', '\\&lt; \\~\\~s\\~\\~ \\$x\\$'],
  ['a backslash that would escape what follows', 'a\\|b', 'a\\\\\\|b'],
  ['a carriage return, a tab and an escape', 'a\rb\tc\u001bd', 'a\\\\rb\\\\tc\\\\u001bd'],
  ['a Unicode line separator', 'a\u2028b', 'a\\\\u2028b'],
  ['plain words and figures stay as they are', 'server_audit 10.0% on smoke', 'server_audit 10.0% on smoke'],
] as const)('mdText: %s', ([, text, markdown]) => {
  expect(mdText(text)).toBe(markdown);
  expect(mdText(text)).not.toMatch(/[\n\r\u2028\u2029]/);
});

test('mdText leaves no metacharacter unescaped, whatever the input', () => {
  const hostile = '\\`*_ _[x](y)<>|~&$ # - + = 1. \n\r\t\u0000\u007f';
  const escaped = mdText(hostile);
  // Every metacharacter (and every ] before a link's '(') is preceded by an odd run of backslashes.
  for (const match of escaped.matchAll(/(\\*)([`*_<>|~&$]|\](?=\())/g))
    expect((match[1] ?? '').length % 2, escaped).toBe(1);
});

test('oneLine shows control characters as their escapes', () => {
  expect(oneLine('a\nb\u0007')).toBe('a\\nb\\u0007');
  expect(oneLine('plain')).toBe('plain');
});

test.for([
  ['a commit', 'bbbbbbb', '`bbbbbbb`'],
  ['a backtick inside', 'a`b', '``a`b``'],
  ['a run of three, at the end', 'x```', '```` x``` ````'],
  ['a newline', 'a\nb', '`a\\nb`'],
  ['a pipe: escaped inline text instead', 'a|b', 'a\\|b'],
] as const)('mdCode: %s', ([, text, markdown]) => {
  expect(mdCode(text)).toBe(markdown);
});

test('mdFence: a fence longer than any backtick run inside, so a ``` in a title closes nothing', () => {
  expect(mdFence(['plain', 'line'])).toEqual(['```', 'plain', 'line', '```']);
  const fenced = mdFence(['run x: ```', '## forged', '````five````?']);
  expect(fenced[0]).toBe('`````');
  expect(fenced.at(-1)).toBe('`````');
  const forged = mdFence(['title\n```\n## auditbench gate: passed']);
  expect(forged).toEqual(['````', 'title\\n```\\n## auditbench gate: passed', '````']);
});
