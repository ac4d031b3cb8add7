// The recorded trace files the replay scripts (noise.ts, segments.ts) read: the ones given, or every
// fixtures/traces/*.json, each parsed with a one-line error when it is not a trace file.
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import type { TraceFile } from '../src/stats/allan-traces.ts';

export function readTraceFiles(given: readonly string[]): { file: string; parsed: TraceFile }[] {
  const traceDir = path.resolve(import.meta.dirname, '../fixtures/traces');
  const files =
    given.length > 0
      ? given
      : readdirSync(traceDir)
          .filter((name) => name.endsWith('.json'))
          .sort()
          .map((name) => path.join(traceDir, name));
  return files.map((file) => {
    let parsed: TraceFile;
    try {
      parsed = JSON.parse(readFileSync(file, 'utf8')) as TraceFile;
    } catch (cause) {
      throw new Error(
        `Cannot read trace file ${file}: give a JSON file written by record-trace or bench:coverage`,
        { cause },
      );
    }
    if (!Array.isArray(parsed.traces) || parsed.traces.length === 0) {
      throw new Error(`Trace file ${file} holds no traces (expected {"traces": [{"tpsPerSecond": […]}]})`);
    }
    return { file, parsed };
  });
}
