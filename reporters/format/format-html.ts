export interface ChartFigure {
  /** Which chart: the browser test and a reader's CSS select on it. */
  name:
    | 'overview'
    | 'timeline'
    | 'overhead'
    | 'trend'
    | 'disk-use'
    | 'sweep'
    | 'latency'
    | 'counted-functions';
  /** Rendered SVG, or null when there is nothing to draw yet. */
  svg: string | null;
  /** Shown instead of the chart when svg is null. */
  empty: string;
}

export interface HtmlTable {
  caption: string;
  /** Column headings, each with an optional second line and a class (e.g. 'seed' greys the reference columns). */
  head: { text: string; note?: string; className?: string }[];
  /** Rows of cells; the first cell of each is the row's heading. */
  rows: string[][];
  /** Paragraphs under the table. */
  notes?: string[];
}

export interface ReportSection {
  heading: string;
  lines: string[];
  figures: ChartFigure[];
  tables?: HtmlTable[];
  /** Bulleted lists after the tables, each under its own heading when it has one. */
  lists?: { heading?: string; items: string[] }[];
}

export interface HtmlReport {
  title: string;
  lines: string[];
  sections: ReportSection[];
}

const entities: Record<string, string> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&#39;',
};
export const escapeHtml = (text: string): string => text.replace(/[&<>"']/g, (c) => entities[c] ?? c);

const STYLE = `
body { font: 15px/1.45 system-ui, sans-serif; margin: 2rem auto; max-width: 760px; color: #222; }
section { border-top: 1px solid #ddd; margin-top: 2rem; }
figure { margin: 1rem 0; }
figure svg { max-width: 100%; height: auto; }
.empty { color: #777; font-style: italic; }
table { border-collapse: collapse; margin: 1rem 0; font-size: 13px; max-width: 100%; }
caption { text-align: left; font-weight: 600; padding-bottom: 0.4rem; }
th, td { border: 1px solid #ddd; padding: 0.25rem 0.5rem; text-align: left; vertical-align: top; overflow-wrap: break-word; }
td { overflow-wrap: anywhere; }
thead small { display: block; font-weight: normal; color: #555; }
.seed { background: #f6f6f6; color: #555; }
.note { font-size: 13px; color: #555; }`;

function figure(f: ChartFigure): string {
  const body = f.svg ?? `<p class="empty">${escapeHtml(f.empty)}</p>`;
  return `<figure class="chart" data-chart="${f.name}"${f.svg ? '' : ' data-empty'}>${body}</figure>`;
}

function table(t: HtmlTable): string {
  const classOf = (i: number) => {
    const name = t.head[i]?.className;
    return name ? ` class="${escapeHtml(name)}"` : '';
  };
  const head = t.head
    .map((h, i) => {
      const note = h.note ? `<small>${escapeHtml(h.note)}</small>` : '';
      return `<th scope="col"${classOf(i)}>${escapeHtml(h.text)}${note}</th>`;
    })
    .join('');
  const rows = t.rows.map(
    ([first, ...rest]) =>
      `<tr><th scope="row">${escapeHtml(first ?? '')}</th>${rest.map((c, i) => `<td${classOf(i + 1)}>${escapeHtml(c)}</td>`).join('')}</tr>`,
  );
  const notes = (t.notes ?? []).map((n) => `\n<p class="note">${escapeHtml(n)}</p>`).join('');
  return `<table>\n<caption>${escapeHtml(t.caption)}</caption>\n<thead><tr>${head}</tr></thead>\n<tbody>\n${rows.join('\n')}\n</tbody>\n</table>${notes}`;
}

function list(l: NonNullable<ReportSection['lists']>[number]): string {
  const items = l.items.map((item) => `<li>${escapeHtml(item)}</li>`).join('\n');
  return `${l.heading ? `<h3>${escapeHtml(l.heading)}</h3>\n` : ''}<ul>\n${items}\n</ul>`;
}

/** A self-contained page: inline SVG, no script, nothing fetched. */
export function formatHtmlReport(report: HtmlReport): string {
  const paragraphs = (lines: string[]) => lines.map((l) => `<p>${escapeHtml(l)}</p>`).join('\n');
  const sections = report.sections.map(
    (s) =>
      `<section>\n<h2>${escapeHtml(s.heading)}</h2>\n${[
        paragraphs(s.lines),
        ...s.figures.map(figure),
        ...(s.tables ?? []).map(table),
        ...(s.lists ?? []).map(list),
      ].join('\n')}\n</section>`,
  );
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(report.title)}</title>
<style>${STYLE}
</style>
</head>
<body>
<h1>${escapeHtml(report.title)}</h1>
${paragraphs(report.lines)}
${sections.join('\n')}
</body>
</html>
`;
}
