import { describe, expect, test } from 'vitest';
import { unavailableCell } from '../../src/matrix/cell.ts';
import type { MatrixCellRecord } from '../../src/results/schema.ts';
import { formatUnmeasured, type TestOutline, unmeasuredItems } from './format-unmeasured.ts';

const outline = (over: Partial<TestOutline>): TestOutline => ({
  file: 'suites/matrix.suite.ts',
  name: 'a test',
  state: 'passed',
  skipNote: null,
  cell: null,
  ...over,
});

const mysqlDown = (plugin: string) =>
  unavailableCell(plugin, {
    image: 'auditbench/mysql:9.7',
    reason: "its image build failed: 'apt-get install mysql-server' failed in the chroot",
    details: ['dpkg: error processing package mysql-server (--configure):'],
  });

const offFlavor: MatrixCellRecord = {
  ...mysqlDown('MariaDB SQL_ERROR_LOG'),
  outcome: 'skipped',
  reason: 'MariaDB SQL_ERROR_LOG is for mariadb servers',
};

describe('unmeasuredItems', () => {
  test('an unavailable server is one item for all its cells', () => {
    const items = unmeasuredItems([
      outline({ state: 'failed', cell: mysqlDown('MySQL NULL_AUDIT') }),
      outline({ state: 'failed', cell: mysqlDown('MariaDB server_audit') }),
    ]);
    expect(items).toEqual([
      {
        kind: 'server',
        what: 'auditbench/mysql:9.7',
        reason: "its image build failed: 'apt-get install mysql-server' failed in the chroot",
        count: 2,
      },
    ]);
  });

  test('a cell that ended in an error is listed with plugin and server', () => {
    const cell = {
      ...mysqlDown('MySQL NULL_AUDIT'),
      outcome: 'error' as const,
      reason: 'measurement: sysbench died',
    };
    expect(unmeasuredItems([outline({ state: 'failed', cell })])).toEqual([
      {
        kind: 'cell',
        what: 'MySQL NULL_AUDIT on auditbench/mysql:9.7',
        reason: 'measurement: sysbench died',
        count: 1,
      },
    ]);
  });

  test('tests skipped with a reason are grouped per file and reason', () => {
    const note = 'no libaudit_plugin.so: set AUDITBENCH_PLUGIN_DIR';
    const items = unmeasuredItems([
      outline({ file: 'suites/mcafee-audit.suite.ts', state: 'skipped', skipNote: note }),
      outline({ file: 'suites/mcafee-audit.suite.ts', state: 'skipped', skipNote: note }),
    ]);
    expect(items).toEqual([{ kind: 'tests', what: 'suites/mcafee-audit.suite.ts', reason: note, count: 2 }]);
  });

  test.for([
    ['a test left out by a name filter', outline({ state: 'skipped' })],
    ['an off-flavour matrix cell, which is an answer', outline({ cell: offFlavor })],
    ['a passed test', outline({})],
    ['a failed test without a cell (its failure is reported already)', outline({ state: 'failed' })],
  ] as const)('not listed: %s', ([, test]) => {
    expect(unmeasuredItems([test])).toEqual([]);
  });
});

describe('formatUnmeasured', () => {
  test('nothing missing is one line saying so', () => {
    expect(formatUnmeasured([])).toBe('requested and not measured: nothing\n');
  });

  test('one line per item with its count and the first line of the reason', () => {
    const text = formatUnmeasured([
      { kind: 'server', what: 'auditbench/mysql:9.7', reason: 'its image build failed\nmore', count: 4 },
      { kind: 'tests', what: 'suites/mcafee-audit.suite.ts', reason: 'no library', count: 1 },
    ]);
    expect(text).toBe(
      [
        'requested and not measured (2):',
        '- server auditbench/mysql:9.7 (4 cells): its image build failed',
        '- tests suites/mcafee-audit.suite.ts (1 test): no library',
        '',
      ].join('\n'),
    );
  });
});
