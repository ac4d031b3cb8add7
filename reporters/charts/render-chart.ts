import * as vega from 'vega';
import { compile, type TopLevelSpec } from 'vega-lite';

/** Compiles a Vega-Lite spec and renders it headless to a standalone SVG string. */
export async function renderSvg(spec: TopLevelSpec): Promise<string> {
  const view = new vega.View(vega.parse(compile(spec).spec), { renderer: 'none' });
  try {
    return await view.toSVG();
  } finally {
    view.finalize();
  }
}
