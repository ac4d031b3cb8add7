import { expect, test } from 'vitest';
import { recordedReportInput } from '../../test/support/report-fixtures.ts';
import { escapeHtml, formatHtmlReport } from './format-html.ts';
import { buildHtmlReport } from './html-report.ts';

const figures = (html: string) =>
  [...html.matchAll(/<figure class="chart" data-chart="(\w+)"( data-empty)?>([\s\S]*?)<\/figure>/g)].map(
    ([, name, empty, body]) => ({ name, empty: Boolean(empty), body: body ?? '' }),
  );

test('every chart of a recorded run is rendered SVG with its marks; an unfinished one says why', async () => {
  const html = await buildHtmlReport(recordedReportInput());
  const [overview, measured, unmeasured] = html.split('<section>').slice(1).map(figures);
  expect(overview?.map((f) => [f.name, f.empty])).toEqual([['overview', false]]);
  expect(overview?.[0]?.body).toMatch(/class="mark-rule[\s\S]*class="mark-symbol[\s\S]*class="mark-rect/);
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

test('the report opens with the overview: the ranked chart, the seed table and the lifecycle findings', async () => {
  const html = await buildHtmlReport(recordedReportInput());
  const overview = html.split('<section>')[1] ?? '';
  expect(overview).toMatch(/^\n<h2>Overview<\/h2>\n<p>2 runs: 1 pass, 1 error\.<\/p>/);
  expect(overview).toContain('No overhead estimate: Unmeasured &lt;plugin&gt; &amp; co.');
  expect(overview).toContain('<caption>The seed&#39;s comparison, this run beside it</caption>');
  expect(overview.match(/<tr><th scope="row">/g)).toHaveLength(9);
  expect(overview).toContain(
    '<tr><th scope="row">throughput loss % [95% CI]</th><td>7.3 [-24.7, 31.0]</td><td>–</td><td class="seed">40.8 (one run)</td></tr>',
  );
  expect(overview).toContain('<h3>Lifecycle findings</h3>');
  expect(overview).toContain('<li>MariaDB server_audit: all 9 lifecycle checks as the profile expects.</li>');
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
