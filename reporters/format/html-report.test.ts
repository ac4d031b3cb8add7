import { expect, test } from 'vitest';
import { recordedReportInput, sweepReportInput } from '../../test/support/report-fixtures.ts';
import { escapeHtml, formatHtmlReport } from './format-html.ts';
import { buildHtmlReport } from './html-report.ts';
import { SECTIONS } from './sections.ts';

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
  expect(overview).toMatch(/^\n<h2>Overview<\/h2>\n<p>2 runs: 1 pass, 1 not measured\.<\/p>/);
  expect(overview).toContain('No overhead estimate: Unmeasured &lt;plugin&gt; &amp; co.');
  expect(overview).toContain('<caption>The seed&#39;s comparison, this run beside it</caption>');
  // Two rows of the runs' legend, nine of the seed's table: one column for the plugin, not one per result of it.
  expect(overview.match(/<tr><th scope="row">/g)).toHaveLength(11);
  expect(overview).toContain(
    '<tr><th scope="row">throughput loss % [95% CI]</th><td>–</td><td class="seed">45.5 (one run)</td><td>7.3 [-24.7, 31.0]</td><td class="seed">40.8 (one run)</td></tr>',
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

test('a sweep: the overview counts a failed lifecycle as a failure, names runs by id, and shows the stock run once', async () => {
  const html = await buildHtmlReport(sweepReportInput());
  const overview = html.split('<section>')[1] ?? '';
  expect(overview).toContain(
    '<p>4 runs: 2 pass, 2 fail (incl-users-app: 4 lifecycle checks failed (logs-query, failed-queries, masks-password, rotation); ddl-dcl-from-cnf: measured an idle plugin).</p>',
  );
  // The chart's axis labels are the run ids, and the legend says what each id is.
  const chart = overview.match(/data-chart="overview">([\s\S]*?)<\/figure>/)?.[1] ?? '';
  for (const id of ['server_audit', 'incl-users-app', 'ddl-dcl-from-cnf', 'dml-no-select'])
    expect(chart).toContain(`>${id}</text>`);
  expect(chart).not.toContain('(server_au');
  expect(overview).toContain(
    '<tr><th scope="row">dml-no-select</th><td>pass</td><td>MariaDB server_audit (server_audit_events=QUERY_DML_NO_SELECT)</td></tr>',
  );
  // The seed's table: McAfee's (not measured: no library) and its seed, then the stock run and its seed, once.
  const seed = overview.slice(overview.indexOf('<caption>The seed'));
  expect(seed.match(/<th scope="col"/g)).toHaveLength(5);
  expect(seed).toContain('<td>9.1 [5.1, 13.1]</td>');
  expect(overview).toContain('<li>incl-users-app: logs-query expected true, observed false</li>');
});

test('each measurement says what the configuration logged; an idle one shows its advice', async () => {
  const html = await buildHtmlReport(sweepReportInput());
  expect(html).toContain(
    '<p>logged 34.0 audit events per transaction (QUERY 20.0, TABLE 14.0), 3350 log bytes; 34.0 of them from the traffic&#39;s accounts (auditbench_app, auditbench_checks)</p>',
  );
  expect(html).toContain(
    '<p>measured an idle plugin: server_audit_events=CONNECT,QUERY_DDL,QUERY_DCL logs only CONNECT',
  );
});

test('a table of its own is one more entry in the section list, after the runs; a table without a caption takes the title', async () => {
  const faults = {
    title: 'Faults',
    shows: () => true,
    content: () => ({
      about: ['one fault table'],
      tables: [{ head: [{ text: 'fault' }], rows: [['disk full']] }],
    }),
  };
  const html = await buildHtmlReport(recordedReportInput(), [...SECTIONS, faults]);
  const last = html.split('<section>').at(-1) ?? '';
  expect(last).toMatch(/^\n<h2>Faults<\/h2>\n<p>one fault table<\/p>\n<table>\n<caption>Faults<\/caption>/);
  expect(last).toContain('<tr><th scope="row">disk full</th></tr>');
});

test('outside text in index.html is escaped everywhere, the charts’ labels included', async () => {
  const input = recordedReportInput();
  const hostile = '<script>alert(1)</script> & "quotes" <img src=x onerror=alert(2)>';
  const results = input.file.results.map((r) => ({
    ...r,
    title: hostile,
    runId: hostile,
    workload: hostile,
  }));
  const html = await buildHtmlReport({
    ...input,
    file: { ...input.file, results },
    revision: { commit: input.revision.commit, branch: '<b>branch</b>' },
  });
  expect(html).not.toMatch(/<script|<img|<b>/);
  expect(html).toContain('&lt;script&gt;alert(1)&lt;/script&gt; &amp; &quot;quotes&quot;');
});
