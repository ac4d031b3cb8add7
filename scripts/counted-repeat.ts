// npm run bench:counted -- [profile] [A/Bs] [pairs]: repeated counted A/Bs of one stock plugin on one counted
// server (docs/measurements/2026-12-04-counted.md). Each A/B is a discarded warm-up and `pairs` ABBA pairs of 150
// transactions; the table says how far any arm's instructions per transaction lie from its kind's mean.

import { loadEnvironment } from '../src/config/env.ts';
import { countArms, countedJob, startCountedServer } from '../src/counted/counted-ab.ts';
import { countedFigures } from '../src/counted/counted-stats.ts';
import type { PluginProfile } from '../src/plugins/profile.ts';
import { setGlobals } from '../src/plugins/steps.ts';
import { profiles } from '../src/profiles/index.ts';
import { getWorkload } from '../src/workload/workloads.ts';

const [name = 'server_audit', repeatsArg = '10', pairsArg = '3'] = process.argv.slice(2);
const profile = (profiles as Record<string, PluginProfile>)[name];
if (!profile) throw new Error(`unknown profile ${name}: one of ${Object.keys(profiles).join(', ')}`);
const repeats = Number(repeatsArg);
const plan = { events: 150, seed: 42, pairs: Number(pairsArg) };
const workload = countedJob(getWorkload('smoke'));
const subject = {
  label: profile.name,
  setup: [...profile.install, ...setGlobals(profile.measureSettings), ...profile.disable],
  arms: { off: profile.disable, on: profile.enable },
  log: profile,
};
const quiet = () => () => {};
const host = await startCountedServer(loadEnvironment(), {
  workload,
  subject,
  loader: async (s) => s.connection,
  progress: quiet(),
});
const perTx: { off: number[]; on: number[] } = { off: [], on: [] };
try {
  console.log('A/B\toff/tx\ton/tx\tadded %\t95% CI\tspread off %\tspread on %\twall s');
  for (let i = 1; i <= repeats; i++) {
    const out = await countArms(host, { workload, subject, plan, progress: quiet() });
    for (const arm of out.arms) perTx[arm.kind].push(arm.totals.instructions / arm.transactions);
    const f = countedFigures(out.arms).instructions;
    const ci = f.pctCi95 ? `[${f.pctCi95[0].toFixed(2)}, ${f.pctCi95[1].toFixed(2)}]` : '–';
    console.log(
      `${i}\t${Math.round(f.offPerTx)}\t${Math.round(f.onPerTx)}\t${(f.pct ?? 0).toFixed(2)}\t${ci}\t${f.spreadPct.off?.toFixed(3)}\t${f.spreadPct.on?.toFixed(3)}\t${Math.round(out.wallS)}`,
    );
  }
} finally {
  await host.server.stop();
}
for (const kind of ['off', 'on'] as const) {
  const values = perTx[kind];
  const mean = values.reduce((a, b) => a + b, 0) / values.length;
  const worst = Math.max(...values.map((v) => Math.abs(v - mean) / mean)) * 100;
  console.log(
    `${kind}: ${values.length} arms, mean ${Math.round(mean)} per transaction, largest deviation ${worst.toFixed(3)}%`,
  );
}
