export interface ChartFigure {
  /** Which chart: the browser test and a reader's CSS select on it. */
  name: 'timeline' | 'overhead' | 'trend';
  /** Rendered SVG, or null when there is nothing to draw yet. */
  svg: string | null;
  /** Shown instead of the chart when svg is null. */
  empty: string;
}

export interface ReportSection {
  heading: string;
  lines: string[];
  figures: ChartFigure[];
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
.empty { color: #777; font-style: italic; }`;

function figure(f: ChartFigure): string {
  const body = f.svg ?? `<p class="empty">${escapeHtml(f.empty)}</p>`;
  return `<figure class="chart" data-chart="${f.name}"${f.svg ? '' : ' data-empty'}>${body}</figure>`;
}

/** A self-contained page: inline SVG, no script, nothing fetched. */
export function formatHtmlReport(report: HtmlReport): string {
  const paragraphs = (lines: string[]) => lines.map((l) => `<p>${escapeHtml(l)}</p>`).join('\n');
  const sections = report.sections.map(
    (s) =>
      `<section>\n<h2>${escapeHtml(s.heading)}</h2>\n${paragraphs(s.lines)}\n${s.figures.map(figure).join('\n')}\n</section>`,
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
