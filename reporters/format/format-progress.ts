const clock = (ms: number): string => {
  const totalS = Math.round(ms / 1000);
  const m = Math.floor(totalS / 60);
  const s = totalS % 60;
  return m > 0 ? `${m}m${String(s).padStart(2, '0')}s` : `${s}s`;
};

/** 'suite 2 of 5 done (suites/x.test.ts, 3m10s); 6m20s elapsed, about 9m30s left': left = mean per file × files left. */
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
