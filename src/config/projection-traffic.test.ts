import { expect, test } from 'vitest';
import { defaultTraffic } from '../runs/default-traffic.ts';
import { parseTraffic, trafficSchema } from './projection-traffic.ts';

test('the default profile is a valid traffic profile', () => {
  expect(trafficSchema.parse(defaultTraffic)).toEqual(defaultTraffic);
});

test('JSON text parses, with failed logins defaulting to 0', () => {
  const text = JSON.stringify({
    statementsPerS: { select: 10, write: 1, failing: 0 },
    connectionsPerS: 1,
    peakFactor: 2,
    freeDiskGb: 20,
  });
  expect(parseTraffic(text, 'traffic.json')).toMatchObject({ name: 'custom', failedLoginsPerS: 0 });
});

test.for([
  ['{', 'traffic.json is not JSON'],
  [
    '{"statementsPerS":{"select":1,"write":1,"failing":0},"connectionsPerS":1,"peakFactor":0.5,"freeDiskGb":1}',
    'peakFactor: peakFactor must be at least 1',
  ],
  [
    '{"statementsPerS":{"select":-1,"write":1,"failing":0},"connectionsPerS":1,"peakFactor":1,"freeDiskGb":1}',
    'statementsPerS.select: select statements must be at least 0',
  ],
  [
    '{"statementsPerS":{"select":1,"write":1,"failing":0},"connectionsPerS":1,"peakFactor":1,"freeDiskGb":1,"qps":3}',
    'qps',
  ],
] as [string, string][])('rejects %s', ([text, message]) => {
  expect(() => parseTraffic(text, 'traffic.json')).toThrow(message);
});
