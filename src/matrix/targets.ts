import { access, readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import type { Environment } from '../config/env.ts';
import { containerRuntime, missingImageAdvice } from '../servers/docker-engine.ts';
import type { StartOptions } from '../servers/start-server.ts';
import type { UnavailableServer } from './cell.ts';
import {
  type BuildFailure,
  buildRecordName,
  type ImageBuild,
  imageBuildFromLabels,
  parseBuildFailure,
  whyUnavailable,
} from './image-build.ts';

/** One column of the matrix: a server to start, or why it cannot be. */
export interface MatrixTarget {
  label: string;
  image: string | null;
  config: Environment;
  start: StartOptions;
  /** The requested server that cannot be tried here, with the reason; null when it can. */
  unavailable: UnavailableServer | null;
  /** The user opted out of containers (AUDITBENCH_DOCKER=0): the column is skipped with that reason, not failed. */
  optedOut: boolean;
  /** The image's suite and package versions, from its labels. */
  build: ImageBuild | null;
}

export interface Borrowed {
  file: string;
  into: (image: string) => boolean;
}

/** Where scripts/docker/build-images.sh records the builds that failed. */
export const buildRecordDir = fileURLToPath(new URL('../../.auditbench/image-builds/', import.meta.url));

const exists = (file: string) =>
  access(file).then(
    () => true,
    () => false,
  );

async function lastBuildFailure(image: string): Promise<BuildFailure | null> {
  const text = await readFile(`${buildRecordDir}${buildRecordName(image)}`, 'utf8').catch(() => null);
  return text === null ? null : parseBuildFailure(text);
}

/** The image's labels, or null when the engine does not have it; throws when no engine answers. */
async function imageLabels(image: string): Promise<Record<string, string> | null> {
  const client = await containerRuntime();
  const info = await client.container.dockerode
    .getImage(image)
    .inspect()
    .catch(() => null);
  return info ? (info.Config?.Labels ?? {}) : null;
}

async function imageTarget(
  config: Environment,
  image: string,
  pluginFiles: string[],
  optedOut: boolean,
): Promise<MatrixTarget> {
  let engineProblem: string | null = optedOut ? 'AUDITBENCH_DOCKER=0: containers were opted out of' : null;
  let labels: Record<string, string> | null = null;
  try {
    if (!optedOut) labels = await imageLabels(image);
  } catch (error) {
    const why = error instanceof Error ? error.message : String(error);
    engineProblem = `${why}; AUDITBENCH_DOCKER=0 opts out of containers`;
  }
  const why = whyUnavailable({
    engineProblem,
    present: labels !== null,
    failure: labels === null ? await lastBuildFailure(image) : null,
    missingAdvice: missingImageAdvice(image),
  });
  return {
    label: image,
    image,
    config: { ...config, target: 'container' },
    start: { image, pluginFiles },
    unavailable: why ? { image, ...why } : null,
    optedOut,
    build: imageBuildFromLabels(labels),
  };
}

/**
 * The local server, plus one container per image in AUDITBENCH_IMAGES. An image that is missing, failed to
 * build, or has no engine to run on is still a column: it says why, and fails unless the user opted out.
 */
export async function matrixTargets(
  config: Environment,
  borrowed: Borrowed[] = [],
  options: { optedOut: boolean } = { optedOut: false },
): Promise<MatrixTarget[]> {
  const targets: MatrixTarget[] = [
    {
      label: 'local server',
      image: null,
      config: { ...config, target: 'local' },
      start: {},
      unavailable: null,
      optedOut: false,
      build: null,
    },
  ];
  for (const image of config.images) {
    const pluginFiles: string[] = [];
    for (const b of borrowed) if (b.into(image) && (await exists(b.file))) pluginFiles.push(b.file);
    targets.push(await imageTarget(config, image, pluginFiles, options.optedOut));
  }
  return targets;
}
