// npm run bench:noise [-- [--per-arm] [trace files…]]: the Allan deviation of ln TPS per second over recorded
// traces (default: every fixtures/traces/*.json), per condition, beside what white noise would give, so a
// segment length is chosen from this machine's data. A replay: nothing is measured live.
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import {
  type ArmHandling,
  formatNoiseCurves,
  noiseCurves,
  type TraceFile,
} from '../src/stats/allan-traces.ts';

const usage =
  'Usage: npm run bench:noise -- [--per-arm] [trace.json …] (--per-arm: the arms differ, centre each arm before the analysis)';

function main(argv: readonly string[]): void {
  const flags = argv.filter((a) => a.startsWith('-'));
  const unknown = flags.filter((f) => f !== '--per-arm');
  if (unknown.length > 0) throw new Error(`Unknown option ${unknown.join(', ')}. ${usage}`);
  const arms: ArmHandling = flags.includes('--per-arm') ? 'per-arm' : 'one-series';
  const traceDir = path.resolve(import.meta.dirname, '../fixtures/traces');
  const given = argv.filter((a) => !a.startsWith('-'));
  const files =
    given.length > 0
      ? given
      : readdirSync(traceDir)
          .filter((name) => name.endsWith('.json'))
          .sort()
          .map((name) => path.join(traceDir, name));
  for (const file of files) {
    let parsed: TraceFile;
    try {
      parsed = JSON.parse(readFileSync(file, 'utf8')) as TraceFile;
    } catch (cause) {
      throw new Error(
        `Cannot read trace file ${file}: give a JSON file written by record-trace or bench:coverage`,
        {
          cause,
        },
      );
    }
    if (!Array.isArray(parsed.traces) || parsed.traces.length === 0) {
      throw new Error(`Trace file ${file} holds no traces (expected {"traces": [{"tpsPerSecond": […]}]})`);
    }
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
