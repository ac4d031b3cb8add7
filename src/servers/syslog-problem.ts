import type { Environment } from '../config/env.ts';
import { containerReceiverProblem } from './container-syslog.ts';
import { containerRuntime } from './docker-engine.ts';
import { privateDevLogFacts, privateDevLogProblem } from './syslog-receiver.ts';

/**
 * Why a run sending to syslog gets no receiver of its own on this target, with what to do; null when it gets one.
 * Local: a private /dev/log (root, unshare, rsyslogd). Container: an image whose entrypoint starts rsyslogd, each of
 * the configured images (an engine that does not answer, or an image not on it, is the container target's own
 * refusal, said where a server starts). External: never.
 */
export async function syslogReceiverProblem(
  config: Pick<Environment, 'target' | 'searchPath' | 'images'>,
): Promise<string | null> {
  if (config.target !== 'container') {
    return privateDevLogProblem(await privateDevLogFacts(config.target, config.searchPath));
  }
  const client = await containerRuntime().catch(() => null);
  if (!client) return null;
  for (const image of config.images) {
    const labels = await client.container.dockerode
      .getImage(image)
      .inspect()
      .then(
        (inspected) => (inspected.Config?.Labels ?? {}) as Record<string, string>,
        () => null,
      );
    const problem = containerReceiverProblem(image, labels);
    if (problem) return problem;
  }
  return null;
}
