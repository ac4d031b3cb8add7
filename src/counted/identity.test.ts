import { expect, test } from 'vitest';
import { sampleIdentity } from '../../test/support/sample-identity.ts';
import { identityDifferences, selectingFeatures } from './identity.ts';

const base = sampleIdentity();

test('the same binaries, configuration and workload compare, on any CPU once glibc is pinned', () => {
  expect(identityDifferences(base, { ...base, cpuFeatures: ['sse4_2'], hostNameBytes: 3 })).toEqual([]);
});

test('a rebuilt plugin, another configuration or valgrind do not compare', () => {
  expect(
    identityDifferences(base, { ...base, pluginSha256: 'b2', configHash: 'c2', valgrind: 'valgrind-3.22.0' }),
  ).toEqual(['pluginSha256', 'configHash', 'valgrind']);
});

test('without the pin, the CPU features must match too', () => {
  const loose = { ...base, glibcTunables: '' };
  expect(identityDifferences(loose, { ...loose, cpuFeatures: ['sse4_2'] })).toEqual(['cpuFeatures']);
});

test('reads the features glibc selects by from /proc/cpuinfo', () => {
  expect(selectingFeatures('processor : 0\nflags : fpu sse4_2 avx avx2 erms lm\n')).toEqual([
    'sse4_2',
    'avx',
    'avx2',
    'erms',
  ]);
});
