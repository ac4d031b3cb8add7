/** What matching needs of a TestModule, so plain objects can stand in for them in tests. */
export interface ModuleLike {
  moduleId: string;
  project: { name: string };
}

const keyOf = (module: ModuleLike): string => `${module.project.name}\u0000${module.moduleId}`;

/**
 * The invocation's modules for its end-of-invocation reports: Vitest's list, with each module replaced by the one it reported
 * ended. They differ when `--merge-reports` meets blobs of the same file from several shards (the matrix's
 * `--shard i/n` splits one file): Vitest keeps one module per file and project, so its list names the last merged
 * blob's module once per blob, while `onTestModuleEnd` was called with each blob's own. The k-th entry for a file
 * becomes the k-th module that ended for it; anything that never ended (a cancelled run) stays as Vitest gave it.
 */
export function endedModules<M extends ModuleLike>(
  fromVitest: ReadonlyArray<M>,
  ended: ReadonlyArray<M>,
): M[] {
  const byFile = new Map<string, M[]>();
  for (const module of ended) byFile.set(keyOf(module), [...(byFile.get(keyOf(module)) ?? []), module]);
  const used = new Map<string, number>();
  return fromVitest.map((module) => {
    const key = keyOf(module);
    const k = used.get(key) ?? 0;
    used.set(key, k + 1);
    return byFile.get(key)?.[k] ?? module;
  });
}
