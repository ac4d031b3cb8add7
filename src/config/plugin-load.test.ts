import { describe, expect, test } from 'vitest';
import { entryFate, loadOptionMeaning, pluginEntries } from './plugin-load.ts';

describe('plugin_load_add, read as the server reads it', () => {
  test.for([
    ['simple_password_check', [[null, 'simple_password_check.so']]],
    ['server_audit.so', [[null, 'server_audit.so']]],
    [
      'SERVER_AUDIT=server_audit.so;disks',
      [
        ['SERVER_AUDIT', 'server_audit.so'],
        [null, 'disks.so'],
      ],
    ],
    ['audit_log#audit_log.so', [['audit_log', 'audit_log.so']]],
    [
      'a:b; ;',
      [
        [null, 'a.so'],
        [null, 'b.so'],
      ],
    ],
    // A comma separates nothing: the server opens one library of that name.
    ['unix_socket,server_audit', [[null, 'unix_socket,server_audit.so']]],
  ] as const)('%s', ([value, entries]) => {
    expect(pluginEntries(value).map((e) => [e.name, e.file])).toEqual(entries);
  });
});

describe('which entries the run keeps', () => {
  const libraries = {
    dir: '/usr/lib/mysql/plugin/',
    names: new Set(['simple_password_check.so', 'server_audit.so', 'disks.so']),
  };
  const context = {
    own: { name: 'SERVER_AUDIT', soname: 'server_audit.so' },
    libraries,
    ruleWhy: (entry: { file: string }) =>
      entry.file === 'feedback.so' ? 'it would reach another host' : null,
    builtIn: (name: string) => name === 'unix_socket',
  };
  test.for([
    [
      'simple_password_check',
      true,
      "simple_password_check.so is in the server's plugin directory /usr/lib/mysql/plugin/",
    ],
    ['disks.so', true, 'disks.so is in'],
    ['server_audit', false, 'it loads SERVER_AUDIT, the plugin measured: auditbench installs it itself'],
    ['SERVER_AUDIT=other.so', false, 'it loads SERVER_AUDIT'],
    ['feedback', false, 'it would reach another host'],
    [
      'unix_socket',
      false,
      "unix_socket.so is not in the server's plugin directory /usr/lib/mysql/plugin/; the server's --help lists --unix-socket: that plugin is built into it",
    ],
    [
      'unix_socket,server_audit',
      false,
      "unix_socket,server_audit.so is not in the server's plugin directory /usr/lib/mysql/plugin/ (the server separates entries with ';'",
    ],
    ['/tmp/evil.so', false, "/tmp/evil.so is not in the server's plugin directory"],
  ] as const)('%s: kept %s', ([value, keep, why]) => {
    const [entry] = pluginEntries(value);
    if (!entry) throw new Error('no entry');
    const fate = entryFate(entry, context);
    expect(fate.keep).toBe(keep);
    expect(fate.why).toContain(why);
  });

  test('without a plugin directory to look in, another plugin is left out, saying so', () => {
    const [entry] = pluginEntries('simple_password_check');
    expect(entry && entryFate(entry, { ...context, libraries: null })).toEqual({
      keep: false,
      why: 'no server plugin directory to look for simple_password_check.so in (no local server binary)',
    });
  });
});

test.for([
  [
    'FORCE_PLUS_PERMANENT',
    false,
    'under FORCE_PLUS_PERMANENT, the server does not start without the plugin and UNINSTALL PLUGIN fails',
  ],
  ['force', false, 'under FORCE, the server does not start when the plugin fails to load'],
  ['ON', false, 'enabled at startup'],
  ['OFF', false, 'loaded but disabled'],
  ['ON', true, 'loaded but disabled'],
] as const)(
  "the plugin's own load option %s (negated %s) is said as what it means in production",
  ([value, negated, says]) => {
    expect(loadOptionMeaning(value, negated)).toContain(says);
  },
);
