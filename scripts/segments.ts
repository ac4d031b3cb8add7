// npm run bench:segments [-- [--window S] [--effect PCT] [trace files…]]: today's toggle design beside designs that
// switch just ahead of sysbench's report boundaries (3, 2 and 1 s segments, no second dropped; 1 s again with each
// ABBA quad as one observation), replayed over recorded traces (default: every fixtures/traces/*.json) in windows of
// the same length. A replay: nothing is measured live, and the traces are null controls, so the real plugin's switch
// cost is not in it.
import path from 'node:path';
import { parseArgs } from 'node:util';
import { compareDesigns, formatDesigns } from '../src/stats/segment-designs.ts';
import { readTraceFiles } from './trace-files.ts';

const usage =
  'Usage: npm run bench:segments -- [--window S (default 48)] [--effect PCT (default 10)] [trace.json …]';

function positive(name: string, value: string | undefined, fallback: number): number {
  if (value === undefined) return fallback;
  const n = Number(value);
  if (!Number.isFinite(n) || n <= 0)
    throw new Error(`--${name} must be a positive number, got '${value}'. ${usage}`);
  return n;
}

function main(argv: string[]): void {
  const { values, positionals } = parseArgs({
    args: argv,
    options: { window: { type: 'string' }, effect: { type: 'string' } },
    allowPositionals: true,
  });
  const windowS = positive('window', values.window, 48);
  const effectPct = positive('effect', values.effect, 10);
  for (const { file, parsed } of readTraceFiles(positionals)) {
    const traces = parsed.traces.filter((t) => t.condition && t.tpsPerSecond.length >= windowS);
    if (traces.length === 0) {
      process.stdout.write(`${path.basename(file)}: no trace with a condition and ${windowS} s or more\n\n`);
      continue;
    }
    process.stdout.write(`${path.basename(file)}: ${parsed.recorded ?? 'no recording note'}\n`);
    process.stdout.write(
      `windows of ${windowS} s, both ABBA phases; ${effectPct}% imposed for the last column\n\n`,
    );
    process.stdout.write(`${formatDesigns(compareDesigns(traces, { windowS, effectPct }), effectPct)}\n\n`);
  }
}

try {
  main(process.argv.slice(2));
} catch (error) {
  process.stderr.write(`${error instanceof Error ? error.message : String(error)}\n`);
  process.exitCode = 1;
}
