// Prints {"runs": {id: {hash, limitPct}}} for the configuration of the checkout it runs in (cwd), using that
// checkout's own profiles and loader, or {"runs": null} when that checkout has no configuration runs yet.
import { access } from 'node:fs/promises';
import path from 'node:path';
import { pathToFileURL } from 'node:url';

async function main(): Promise<void> {
  const root = process.cwd();
  const loader = path.join(root, 'src/runs/load-runs.ts');
  const configPath = process.env.AUDITBENCH_CONFIG ?? 'auditbench.config.ts';
  const present = async (file: string) =>
    access(file).then(
      () => true,
      () => false,
    );
  if (!(await present(loader)) || !(await present(path.resolve(root, configPath)))) {
    process.stdout.write(`${JSON.stringify({ runs: null })}\n`);
    return;
  }
  const { loadRuns } = await import(pathToFileURL(loader).href);
  // The loader takes the registry as a parameter since issue 20; an older checkout's loader ignores it.
  const registryFile = path.join(root, 'fixtures/plugins/index.ts');
  const registry = (await present(registryFile))
    ? (await import(pathToFileURL(registryFile).href)).profiles
    : undefined;
  const { configHash } = await import(pathToFileURL(path.join(root, 'src/history/config-hash.ts')).href);
  const runs: {
    id: string;
    profile: unknown;
    optionFile: { sha256: string } | null;
    maxOverheadPct: number;
  }[] = await loadRuns({ configPath: path.resolve(root, configPath), runIds: null }, registry);
  const fingerprints = Object.fromEntries(
    runs.map((run) => [
      run.id,
      {
        hash: configHash(run.profile, { id: run.id, optionFileSha256: run.optionFile?.sha256 ?? null }),
        limitPct: run.maxOverheadPct,
      },
    ]),
  );
  process.stdout.write(`${JSON.stringify({ runs: fingerprints })}\n`);
}

main().catch((error: unknown) => {
  process.stderr.write(`${error instanceof Error ? error.message : String(error)}\n`);
  process.exitCode = 1;
});
