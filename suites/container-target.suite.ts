import { describe, expect, type TestContext, test } from 'vitest';
import { loadEnvironment } from '../src/config/env.ts';
import { containersOf, dockerAvailable } from '../src/servers/docker-engine.ts';
import { startServer } from '../src/servers/start-server.ts';
import { editsApply, isPrivate, startsAndLeavesNothing } from './container-target/container-checks.ts';

const config = { ...loadEnvironment(), target: 'container' as const };
// One MariaDB and one MySQL: the two entrypoint and log dialects the target must understand.
const images = ['auditbench/mariadb:10.11', 'auditbench/mysql:9.7'];

for (const image of images) {
  const unavailable = await dockerAvailable(image);
  const needDocker = (context: TestContext) => {
    if (unavailable) context.skip(unavailable);
  };

  describe(`container target, ${image}`, () => {
    test('starts, answers, restarts, survives SIGKILL, and leaves no container behind', async (context) => {
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

    test('is private: published on 127.0.0.1 only, root needs the run password, no file access, no empty-password accounts', async (context) => {
      needDocker(context);
      await isPrivate(config, image);
    });

    test('reads only inside the datadir, and finds plugin libraries', async (context) => {
      needDocker(context);
      await using server = await startServer(config, { image });
      await expect(server.readFile('../../../etc/passwd')).rejects.toThrow(/outside the server's datadir/);
      await expect(server.listFiles('..')).rejects.toThrow(/outside the server's datadir/);
      expect(await server.pluginFileExists('no_such_plugin.so')).toBe(false);
      const soname = server.info.flavor === 'mariadb' ? 'server_audit.so' : 'adt_null.so';
      expect(await server.pluginFileExists(soname)).toBe(true);
      await server.pinCpus?.('0');
    });
  });
}
