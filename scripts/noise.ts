// npm run bench:noise [-- [--per-arm] [trace files…]]: the Allan deviation of ln TPS per second over recorded
// traces (default: every fixtures/traces/*.json), per condition, beside what white noise would give, so a
// segment length is chosen from this machine's data. A replay: nothing is measured live.
import path from 'node:path';
import { type ArmHandling, formatNoiseCurves, noiseCurves } from '../src/stats/allan-traces.ts';
import { readTraceFiles } from './trace-files.ts';

const usage =
  'Usage: npm run bench:noise -- [--per-arm] [trace.json …] (--per-arm: the arms differ, centre each arm before the analysis)';

function main(argv: readonly string[]): void {
  const flags = argv.filter((a) => a.startsWith('-'));
  const unknown = flags.filter((f) => f !== '--per-arm');
  if (unknown.length > 0) throw new Error(`Unknown option ${unknown.join(', ')}. ${usage}`);
  const arms: ArmHandling = flags.includes('--per-arm') ? 'per-arm' : 'one-series';
  const given = argv.filter((a) => !a.startsWith('-'));
  for (const { file, parsed } of readTraceFiles(given)) {
    process.stdout.write(`${path.basename(file)}: ${parsed.recorded ?? 'no recording note'}\n`);
    process.stdout.write(`Allan deviation of ln TPS per second (${arms}), pooled over runs\n\n`);
    process.stdout.write(`${formatNoiseCurves(noiseCurves(parsed.traces, arms))}\n`);
  }
}

try {
  main(process.argv.slice(2));
} catch (error) {
  process.stderr.write(`${error instanceof Error ? error.message : String(error)}\n`);
  process.exitCode = 1;
}
