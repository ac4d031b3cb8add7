import { expect, test } from 'vitest';
import type { MatrixCellRecord } from '../../src/results/schema.ts';
import { formatMatrix } from './format-matrix.ts';

const cell = (
  plugin: string,
  image: string,
  outcome: MatrixCellRecord['outcome'],
  reason = '',
): MatrixCellRecord => ({
  plugin,
  server: {
    flavor: image.includes('mysql') ? 'mysql' : 'mariadb',
    version: '1.0',
    target: 'container',
    image,
  },
  outcome,
  reason,
  lifecycleOk: outcome === 'works' ? true : null,
  overheadPct: outcome === 'works' ? 12.3 : null,
  overheadCi95: outcome === 'works' ? [10, 14.6] : null,
  verdict: outcome === 'works' ? 'pass' : null,
});

test('the grid has a row per plugin and a column per server', () => {
  const text = formatMatrix([
    cell('server_audit', 'auditbench/mariadb:10.11', 'works'),
    cell('server_audit', 'auditbench/mysql:9.7', 'incompatible', 'undefined symbol: PSI_server'),
    cell('NULL_AUDIT', 'auditbench/mysql:9.7', 'works'),
  ]);
  expect(text).toContain('auditbench/mysql:9.7');
  expect(text).toContain('PSI_server');
  expect(text).toContain('12.3%');
  expect(text.split('\n').filter((l) => l.includes('NULL_AUDIT'))).toHaveLength(1);
  expect(text).toContain('–');
});

test('a column shows the Debian suite and the server package its image was built from', () => {
  const built = cell('NULL_AUDIT', 'auditbench/mysql:9.7', 'works');
  built.server.imageBuild = {
    suite: 'sid',
    packages: ['libc6=2.43-7', 'mysql-server-core=9.7.4-2'],
    builtAt: '2026-12-01T00:20:00Z',
  };
  const text = formatMatrix([built]);
  expect(text).toContain('Debian sid');
  expect(text).toContain('mysql-server-core=9.7.4-2');
  expect(text).not.toContain('libc6');
});

test('an image that could not be built is a column that says so, with the build log after the grid', () => {
  const unavailable = (plugin: string): MatrixCellRecord => ({
    ...cell(
      plugin,
      'auditbench/mysql:9.7',
      'unavailable',
      "its image build failed: 'apt-get install' failed",
    ),
    details: ['Setting up mysql-server (9.7.4-2) ...', 'dpkg: error processing package mysql-server'],
  });
  const text = formatMatrix([
    cell('server_audit', 'auditbench/mariadb:10.11', 'works'),
    unavailable('server_audit'),
    unavailable('NULL_AUDIT'),
  ]);
  const lines = text.split('\n');
  expect(lines[1]).toContain('auditbench/mysql:9.7');
  expect(text).toContain('NOT AVAILABLE');
  expect(text.match(/NOT MEASURED/g)).toHaveLength(2);
  // The reason and the log tail once, not once per cell.
  expect(lines.filter((l) => l.includes("its image build failed: 'apt-get install' failed"))).toHaveLength(1);
  expect(lines.at(-1)).toBe('  | dpkg: error processing package mysql-server');
});
