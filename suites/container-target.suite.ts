import { describe, expect, type TestContext, test } from 'vitest';
import { loadEnvironment } from '../src/config/env.ts';
import { containersOf, dockerAvailable } from '../src/servers/docker-engine.ts';
import { startServer } from '../src/servers/start-server.ts';
import { editsApply, startsAndLeavesNothing } from './container-target/container-checks.ts';

const config = { ...loadEnvironment(), target: 'container' as const };
// One MariaDB and one MySQL: the two entrypoint and log dialects the target must understand.
const images = ['auditbench/mariadb:10.11', 'auditbench/mysql:9.7'];

for (const image of images) {
  const unavailable = await dockerAvailable(image);
  const needDocker = (context: TestContext) => {
    if (unavailable) context.skip(unavailable);
  };

  describe(`container target, ${image}`, () => {
    test('starts private (127.0.0.1 only, the run password, no file access, reads only in its datadir), answers, restarts, survives SIGKILL, and leaves no container behind', async (context) => {
      needDocker(context);
      await startsAndLeavesNothing(config, image);
    });

    test('editConfig applies at the next restart; a rejected option is reported quickly with its log line', async (context) => {
      needDocker(context);
      await editsApply(config, image);
    });

    test('a first start that fails is reported with the container log, and removed', async (context) => {
      needDocker(context);
      const started = Date.now();
      const failure = await startServer(config, { image, options: { audit_uninstall_plugin: '1' } }).then(
        async (server) => {
          await server.stop();
          return new Error('started with an unknown option');
        },
        (error: Error) => error,
      );
      console.log(`${image}: first start refused in ${Date.now() - started} ms: ${failure.message}`);
      // MariaDB's entrypoint checks the config first and exits without a word (see container-files.ts).
      expect(failure.message).toMatch(/unknown variable 'audit_uninstall_plugin=1'|entrypoint stopped/);
      expect(Date.now() - started).toBeLessThan(60_000);
      expect(await containersOf()).toEqual([]);
    });
  });
}
