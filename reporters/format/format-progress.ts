const clock = (ms: number): string => {
  const totalS = Math.round(ms / 1000);
  const m = Math.floor(totalS / 60);
  const s = totalS % 60;
  return m > 0 ? `${m}m${String(s).padStart(2, '0')}s` : `${s}s`;
};

/** 'suite 2 of 5 done (suites/x.suite.ts, 3m10s); 6m20s elapsed, about 9m30s left': left = mean per file × files left. */
export function formatProgress(p: {
  done: number;
  total: number;
  file: string;
  fileMs: number;
  elapsedMs: number;
}): string {
  const left = p.total - p.done;
  const eta = left > 0 && p.done > 0 ? `, about ${clock((p.elapsedMs / p.done) * left)} left` : '';
  return `auditbench: suite ${p.done} of ${p.total} done (${p.file}, ${clock(p.fileMs)}); ${clock(p.elapsedMs)} elapsed${eta}`;
}

/** Unit files take milliseconds; only benchmark files (minutes each) get a progress line and a wall time. */
export const isBenchmark = (projectName: string): boolean => projectName !== 'unit';

/** One benchmark file's wall time, as the closing lines list it. */
export interface FileTime {
  file: string;
  ms: number;
}

/**
 * 'time by file (12m30s in 3 files): suites/a.suite.ts 8m20s, …': the benchmark files, slowest first, so that a CI
 * log which keeps only a run's last lines still says where a run's minutes went. Files under `minMs` are counted in
 * the total but not named. A file measured in several shards and merged (`auditbench matrix --merge-reports`) is
 * one file: its shards' times summed.
 */
export function formatFileTimes(perModule: FileTime[], minMs = 30_000): string {
  const byFile = new Map<string, number>();
  for (const t of perModule) byFile.set(t.file, (byFile.get(t.file) ?? 0) + t.ms);
  const times = [...byFile].map(([file, ms]) => ({ file, ms }));
  if (times.length === 0) return '';
  const total = times.reduce((sum, t) => sum + t.ms, 0);
  const named = [...times].sort((a, b) => b.ms - a.ms).filter((t) => t.ms >= minMs);
  const rest = times.length - named.length;
  const list = [
    ...named.map((t) => `${t.file} ${clock(t.ms)}`),
    ...(rest > 0 ? [`${rest} more under ${clock(minMs)}`] : []),
  ];
  return `time by file (${clock(total)} in ${times.length} files): ${list.join(', ')}\n`;
}
