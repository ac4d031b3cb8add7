// npm run bench:counted -- [profile] [repeats] [pairs]: repeated counted A/Bs of one stock plugin on one counted
// server (docs/measurements/2026-12-04-counted.md). Each A/B is a discarded warm-up and `pairs` ABBA pairs of 150
// transactions; the table says how far any arm's instructions per transaction lie from its kind's mean.
// `aa` (server_audit) or `aa:<profile>` as the profile counts A/As instead: the plugin installed with its settings
// and off in both arms, as in an A/B's off arm, so what one arm adds is the channel's own noise
// (docs/measurements/2026-12-05-counted-aa.md).

import { loadEnvironment } from '../src/config/env.ts';
import { type CountedSubject, countedJob } from '../src/counted/counted-ab.ts';
import { countedFigures } from '../src/counted/counted-stats.ts';
import { countArms, startCountedServer } from '../src/orchestrate/counted-sequence.ts';
import { liveSeams } from '../src/orchestrate/seams.ts';
import type { PluginProfile } from '../src/plugins/profile.ts';
import { setGlobals } from '../src/plugins/steps.ts';
import { profiles } from '../src/profiles/index.ts';
import { getWorkload } from '../src/workload/workloads.ts';

const [nameArg = 'server_audit', repeatsArg = '10', pairsArg = '3'] = process.argv.slice(2);
const aa = nameArg === 'aa' || nameArg.startsWith('aa:');
const name = aa ? nameArg.slice(3) || 'server_audit' : nameArg;
const profile = (profiles as Record<string, PluginProfile>)[name];
if (!profile)
  throw new Error(`unknown profile ${name}: one of ${Object.keys(profiles).join(', ')}, or aa:<profile>`);
const repeats = Number(repeatsArg);
const plan = { events: 150, seed: 42, pairs: Number(pairsArg) };
const workload = countedJob(getWorkload('smoke'));
const subject: CountedSubject = {
  label: aa ? `${profile.name} off, A/A` : profile.name,
  setup: [...profile.install, ...setGlobals(profile.measureSettings), ...profile.disable],
  arms: { off: profile.disable, on: aa ? profile.disable : profile.enable },
  log: profile,
};
const quiet = () => () => {};
const host = await startCountedServer(
  loadEnvironment(),
  { job: workload, subject, loader: async (s) => s.connection, progress: quiet() },
  liveSeams,
);
const kind = aa ? 'A/A' : 'A/B';
const interval = (ci: [number, number] | null, digits: number) =>
  ci ? `[${ci[0].toFixed(digits)}, ${ci[1].toFixed(digits)}]` : '–';
const perTx: { off: number[]; on: number[] } = { off: [], on: [] };
const addedPct: number[] = [];
try {
  console.log(
    `${kind}\toff/tx\ton/tx\tadded %\t95% CI\tspread off %\tspread on %\twrites off/tx\twrites +/tx\twrites 95% CI\tlog bytes +/tx\twall s`,
  );
  for (let i = 1; i <= repeats; i++) {
    const out = await countArms(host, { job: workload, subject, plan, progress: quiet() }, liveSeams);
    for (const arm of out.arms) perTx[arm.kind].push(arm.totals.instructions / arm.transactions);
    const figures = countedFigures(out.arms);
    const f = figures.instructions;
    addedPct.push(f.pct ?? Number.NaN);
    const w = figures.writeCalls;
    console.log(
      `${i}\t${Math.round(f.offPerTx)}\t${Math.round(f.onPerTx)}\t${(f.pct ?? 0).toFixed(2)}\t${interval(f.pctCi95, 2)}\t${f.spreadPct.off?.toFixed(3)}\t${f.spreadPct.on?.toFixed(3)}\t${w.offPerTx.toFixed(1)}\t${w.addedPerTx.toFixed(2)}\t${interval(w.addedCi95, 1)}\t${figures.logBytes.addedPerTx.toFixed(1)}\t${Math.round(out.wallS)}`,
    );
  }
} finally {
  await host.server.stop();
}
for (const arm of ['off', 'on'] as const) {
  const values = perTx[arm];
  const mean = values.reduce((a, b) => a + b, 0) / values.length;
  const worst = Math.max(...values.map((v) => Math.abs(v - mean) / mean)) * 100;
  console.log(
    `${arm}: ${values.length} arms, mean ${Math.round(mean)} per transaction, largest deviation ${worst.toFixed(3)}%`,
  );
}
const largest = Math.max(...addedPct.map(Math.abs));
console.log(`added: ${addedPct.length} ${kind}s, largest |added| ${largest.toFixed(3)}%`);
