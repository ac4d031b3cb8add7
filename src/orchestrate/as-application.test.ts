import { expect, test } from 'vitest';
import {
  fakeClock,
  quietProbe,
  scriptedSysbench,
  steady,
  unitWorkload,
} from '../../test/support/scripted-sysbench.ts';
import { toyProfile } from '../../test/support/toy-profile.ts';
import type { SysbenchRunner } from '../bench/subject.ts';
import type { ConnectionOptions } from '../servers/started-server.ts';
import { measureAsApplication } from './as-application.ts';

const application: ConnectionOptions = {
  host: '127.0.0.1',
  port: 3306,
  user: 'app',
  password: 'app-password',
};

test('the tables load and sysbench runs as the application account; the watch spans the measurement alone', async () => {
  const { server, runner, calls } = scriptedSysbench([1000, 1000], steady(1000));
  const events: string[] = [];
  const watching: SysbenchRunner = {
    prepare: async (connection, job) => {
      events.push(`prepare as ${connection.user}`);
      return runner.prepare(connection, job);
    },
    run: async (connection, job, opts) => {
      events.push(`run as ${connection.user}`);
      return runner.run(connection, job, opts);
    },
  };
  const { measurement, watched } = await measureAsApplication(server, toyProfile, {
    plan: { workload: unitWorkload },
    application,
    limitPct: toyProfile.maxOverheadPct,
    progress: () => {},
    watch: () => {
      events.push('watch starts');
      return {
        stop: async () => {
          events.push('watch stops');
          return ['seen'];
        },
      };
    },
    seams: { sysbench: watching, probe: quietProbe(), clock: fakeClock() },
  });
  expect(events[0]).toBe('prepare as app');
  expect(events[1]).toBe('watch starts');
  expect(events.at(-1)).toBe('watch stops');
  const runs = events.filter((e) => e.startsWith('run as'));
  expect(runs.length).toBeGreaterThan(0);
  expect(new Set(runs)).toEqual(new Set(['run as app']));
  expect(calls.some((c) => c.startsWith('on '))).toBe(true);
  expect(watched).toEqual(['seen']);
  // Off and on alike: a pass against the toy's limit, measured without an A/A.
  expect(measurement.verdict).toBe('pass');
  expect(measurement.noiseFloorPct).toBeNull();
});

test('without a watch, nothing is watched', async () => {
  const { server, runner } = scriptedSysbench([1000, 1000], steady(1000));
  const { watched } = await measureAsApplication(server, toyProfile, {
    plan: { workload: unitWorkload },
    application,
    limitPct: toyProfile.maxOverheadPct,
    progress: () => {},
    seams: { sysbench: runner, probe: quietProbe(), clock: fakeClock() },
  });
  expect(watched).toBeNull();
});
