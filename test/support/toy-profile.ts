import type { PluginProfile } from '../../src/plugins/profile.ts';
import { sql } from '../../src/plugins/steps.ts';

/**
 * TOY (`toy.so`), a plugin for tests that run against the fake server and the scripted sysbench: on and off are what
 * the fake was last told of `toy`, and it counts events in a status variable, so no log file is followed. Spread it
 * and override what a test is about.
 */
export const toyProfile: PluginProfile = {
  name: 'TOY',
  title: 'Toy audit',
  soname: 'toy.so',
  flavors: ['mariadb'],
  install: [sql("INSTALL PLUGIN toy SONAME 'toy.so'")],
  uninstall: [sql('UNINSTALL PLUGIN toy')],
  enable: [sql('SET GLOBAL toy = ON')],
  disable: [sql('SET GLOBAL toy = OFF')],
  measureSettings: {},
  variablesLike: 'toy%',
  loggingVariable: 'toy',
  log: { file: null, format: null, rotation: null, countersLike: 'Toy\\_%', eventCounter: 'Toy_events' },
  maxOverheadPct: 10,
  expected: {
    logsSuccessfulQueries: true,
    failedQueryCodes: [],
    masksPasswords: true,
    rotates: false,
    afterRestart: { installed: true, loggingOn: false, variablesReset: true },
    uninstall: { warningCodes: [], needsRestart: false, stillLogs: false },
  },
};
