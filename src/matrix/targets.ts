import { access } from 'node:fs/promises';
import type { Config } from '../config/env.ts';
import { dockerAvailable } from '../servers/docker-engine.ts';
import type { StartOptions } from '../servers/start-server.ts';

/** One column of the matrix: a server to start, or the reason it cannot be. */
export interface MatrixTarget {
  label: string;
  image: string | null;
  config: Config;
  start: StartOptions;
  unavailable: string | null;
}

export interface Borrowed {
  file: string;
  into: (image: string) => boolean;
}

const exists = (file: string) =>
  access(file).then(
    () => true,
    () => false,
  );

/** The local server, plus one container per image in AUDITBENCH_IMAGES (skipped with the reason without Docker). */
export async function matrixTargets(config: Config, borrowed: Borrowed[] = []): Promise<MatrixTarget[]> {
  const targets: MatrixTarget[] = [
    {
      label: 'local server',
      image: null,
      config: { ...config, target: 'local' },
      start: {},
      unavailable: null,
    },
  ];
  for (const image of config.images) {
    const pluginFiles: string[] = [];
    for (const b of borrowed) if (b.into(image) && (await exists(b.file))) pluginFiles.push(b.file);
    targets.push({
      label: image,
      image,
      config: { ...config, target: 'container' },
      start: { image, pluginFiles },
      unavailable: await dockerAvailable(image),
    });
  }
  return targets;
}
