import { expect, test } from 'vitest';
import type { PluginResult } from '../../src/results/schema.ts';
import { perEventFixture } from '../../test/support/per-event-fixture.ts';
import { recordedReportInput } from '../../test/support/report-fixtures.ts';
import { diskUseData, diskUseSpec, horizonDays } from './disk-use-spec.ts';
import { renderSvg } from './render-chart.ts';

const [recorded] = recordedReportInput().file.results;
if (!recorded) throw new Error('the recorded results hold no result');
const rotating: PluginResult = { ...recorded, perEvent: perEventFixture({ sizeBytes: 1e9, rotations: 4 }) };
const growing: PluginResult = { ...recorded, title: 'General query log', perEvent: perEventFixture(null) };

test('a rotating log levels off at its bound; an unrotated one stops at the free space', () => {
  const data = diskUseData([rotating, growing]);
  const last = (plugin: string) => data?.points.filter((p) => p.plugin === plugin).at(-1)?.usedGb;
  expect(last(rotating.title)).toBeCloseTo(5, 9);
  expect(last('General query log')).toBe(100);
  expect(data?.points[0]?.usedGb).toBe(0);
});

test('the horizon covers the latest fill-up with room, within a week and a year; nothing measured gives no chart', () => {
  const p = growing.perEvent?.projection;
  if (p?.disk.kind !== 'unbounded' || p.disk.daysUntilFull === null) throw new Error('fixture changed');
  expect(horizonDays([p])).toBe(Math.min(365, Math.max(7, Math.ceil(1.2 * p.disk.daysUntilFull))));
  expect(diskUseSpec([recorded])).toBeNull();
});

test('the spec renders to an SVG with one line per plugin', async () => {
  const spec = diskUseSpec([rotating, growing]);
  if (!spec) throw new Error('no spec');
  const svg = await renderSvg(spec);
  expect(svg).toContain('<svg');
  expect(svg).toContain('General query log');
});
