import { expect, test } from 'vitest';
import { escapeHtml, formatHtmlReport } from './format-html.ts';
import { buildHtmlReport } from './html-report.ts';
import { recordedReportInput } from './report-fixtures.ts';

const figures = (html: string) =>
  [...html.matchAll(/<figure class="chart" data-chart="(\w+)"( data-empty)?>([\s\S]*?)<\/figure>/g)].map(
    ([, name, empty, body]) => ({ name, empty: Boolean(empty), body: body ?? '' }),
  );

test('every chart of a recorded run is rendered SVG with its marks; an unfinished one says why', async () => {
  const html = await buildHtmlReport(recordedReportInput());
  const [measured, unmeasured] = html.split('<section>').slice(1).map(figures);
  const byName = Object.fromEntries((measured ?? []).map((f) => [f.name, f]));
  expect(Object.keys(byName)).toEqual(['timeline', 'overhead', 'trend']);
  expect(byName.timeline?.body).toMatch(/class="mark-rect[\s\S]*class="mark-line/);
  expect(byName.overhead?.body).toMatch(/class="mark-rule[\s\S]*class="mark-symbol/);
  // Four main/feature runs from the history plus this one.
  expect(byName.trend?.body.match(/<path[^>]*d="M[^"]*"/g)?.length).toBeGreaterThanOrEqual(5);
  expect(unmeasured?.map((f) => f.empty)).toEqual([true, true, true]);
  expect(html).toContain('Unmeasured &lt;plugin&gt; &amp; co');
  expect(html).not.toMatch(/<script|https?:\/\/(?!www\.w3\.org)/);
});

test('text is escaped, SVG is not', () => {
  expect(escapeHtml(`<a href="x">'&'</a>`)).toBe('&lt;a href=&quot;x&quot;&gt;&#39;&amp;&#39;&lt;/a&gt;');
  const html = formatHtmlReport({
    title: 'a < b',
    lines: [],
    sections: [{ heading: 'h', lines: ['l'], figures: [{ name: 'trend', svg: '<svg></svg>', empty: '' }] }],
  });
  expect(html).toContain('<title>a &lt; b</title>');
  expect(html).toContain('<figure class="chart" data-chart="trend"><svg></svg></figure>');
});
