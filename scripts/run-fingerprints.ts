// Prints {"runs": {id: {hash, limitPct}}} for the configuration of the checkout it runs in (cwd), using that
// checkout's own profiles and loader, or {"runs": null} when that checkout has no configuration runs yet.
import { access } from 'node:fs/promises';
import path from 'node:path';
import { pathToFileURL } from 'node:url';

async function main(): Promise<void> {
  const root = process.cwd();
  const configPath = process.env.AUDITBENCH_CONFIG ?? 'auditbench.config.ts';
  const present = async (file: string) =>
    access(file).then(
      () => true,
      () => false,
    );
  // The first path each file has had: an older checkout keeps the layout of its day.
  const firstPresent = async (...files: string[]) => {
    for (const file of files) if (await present(path.join(root, file))) return path.join(root, file);
    return null;
  };
  const loader = await firstPresent('src/runs/load-runs.ts', 'src/config/load-runs.ts');
  if (!loader || !(await present(path.resolve(root, configPath)))) {
    process.stdout.write(`${JSON.stringify({ runs: null })}\n`);
    return;
  }
  const { loadRuns } = await import(pathToFileURL(loader).href);
  // The loader takes the registry as a parameter since issue 20; an older checkout's loader ignores it.
  const registryFile = await firstPresent('src/profiles/index.ts', 'fixtures/plugins/index.ts');
  const registry = registryFile ? (await import(pathToFileURL(registryFile).href)).profiles : undefined;
  const hasher = (await firstPresent('src/runs/config-hash.ts', 'src/history/config-hash.ts')) as string;
  const { configHash } = await import(pathToFileURL(hasher).href);
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
