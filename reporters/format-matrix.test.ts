import { expect, test } from 'vitest';
import type { MatrixCellRecord } from '../src/results/schema.ts';
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
