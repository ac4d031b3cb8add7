import { describe, expect, test } from 'vitest';
import {
  buildRecordName,
  describeBuild,
  imageBuildFromLabels,
  parseBuildFailure,
  whyUnavailable,
} from './image-build.ts';

// Labels as build-images.sh put them on auditbench/mysql:9.7 on 2026-12-01.
const mysqlLabels = {
  'org.auditbench': '1',
  'org.auditbench.suite': 'sid',
  'org.auditbench.server-version': '9.7.4-2',
  'org.auditbench.packages':
    'libc6=2.43-7 libssl3t64=3.6.1-1 mysql-common=5.8+1.1.1 mysql-server-core=9.7.4-2',
  'org.auditbench.built-at': '2026-12-01T00:20:00Z',
};

describe('imageBuildFromLabels', () => {
  test('reads the suite, the package versions and the build time', () => {
    expect(imageBuildFromLabels(mysqlLabels)).toEqual({
      suite: 'sid',
      packages: ['libc6=2.43-7', 'libssl3t64=3.6.1-1', 'mysql-common=5.8+1.1.1', 'mysql-server-core=9.7.4-2'],
      builtAt: '2026-12-01T00:20:00Z',
    });
  });

  test.for([
    ['no labels', null],
    ['an official image', { maintainer: 'someone' }],
    ['a build from before the suite label', { 'org.auditbench': '1' }],
  ] as const)('%s: null', ([, labels]) => {
    expect(imageBuildFromLabels(labels)).toBeNull();
  });

  test('a build without the packages label still has its suite', () => {
    expect(imageBuildFromLabels({ 'org.auditbench.suite': 'bookworm' })).toEqual({
      suite: 'bookworm',
      packages: [],
      builtAt: null,
    });
  });
});

test('describeBuild puts the suite and the server packages in the column header', () => {
  const build = imageBuildFromLabels(mysqlLabels);
  expect(build && describeBuild(build)).toBe('Debian sid\nmysql-server-core=9.7.4-2');
});

test.for([
  ['auditbench/mysql:9.7', 'auditbench_mysql_9.7.failed'],
  ['registry.example:5000/mariadb:11.8', 'registry.example_5000_mariadb_11.8.failed'],
] as const)('buildRecordName(%s) = %s', ([image, name]) => {
  expect(buildRecordName(image)).toBe(name);
});

describe('parseBuildFailure', () => {
  test('a failed debootstrap: reason, log file and the last lines', () => {
    const record = [
      'image: auditbench/mariadb:10.6',
      'failed: 2026-12-01T00:40:00Z',
      "reason: debootstrap nosuch failed (is 'nosuch' a Debian suite on http://deb.debian.org/debian?)",
      'log: /work/main/.auditbench/image-builds/auditbench_mariadb_10.6.failed.log',
      '--- last lines of the build log ---',
      'I: Retrieving InRelease ',
      'E: Failed getting release file http://deb.debian.org/debian/dists/nosuch/Release',
      '',
    ].join('\n');
    expect(parseBuildFailure(record)).toEqual({
      image: 'auditbench/mariadb:10.6',
      failedAt: '2026-12-01T00:40:00Z',
      reason: "debootstrap nosuch failed (is 'nosuch' a Debian suite on http://deb.debian.org/debian?)",
      logFile: '/work/main/.auditbench/image-builds/auditbench_mariadb_10.6.failed.log',
      logTail: [
        'I: Retrieving InRelease ',
        'E: Failed getting release file http://deb.debian.org/debian/dists/nosuch/Release',
      ],
    });
  });

  test('an unknown image has a reason and no log', () => {
    const record =
      "image: auditbench/mysql:9.9\nfailed: 2026-12-01T00:41:00Z\nreason: unknown image 'auditbench/mysql:9.9'\n";
    expect(parseBuildFailure(record)).toMatchObject({
      reason: "unknown image 'auditbench/mysql:9.9'",
      logFile: null,
      logTail: [],
    });
  });

  test('a record without a reason is not one', () => {
    expect(parseBuildFailure('image: auditbench/mysql:9.7\n')).toBeNull();
  });
});

describe('whyUnavailable', () => {
  const base = {
    engineProblem: null,
    present: true,
    failure: null,
    missingAdvice: 'build it with build-images.sh',
  };
  test('a present image on a running engine can be tried', () => {
    expect(whyUnavailable(base)).toBeNull();
  });
  test('no engine: the engine problem, whether or not the image is there', () => {
    expect(whyUnavailable({ ...base, engineProblem: 'No Docker engine answers' })).toEqual({
      reason: 'No Docker engine answers',
      details: [],
    });
  });
  test('missing and never failed: how to build it', () => {
    expect(whyUnavailable({ ...base, present: false })?.reason).toBe('build it with build-images.sh');
  });
  test('missing after a failed build: the recorded reason, when, the log file and its tail', () => {
    const failure = {
      image: 'auditbench/mysql:9.7',
      failedAt: '2026-12-01T00:40:00Z',
      reason: "'apt-get install mysql-server' failed in the chroot",
      logFile: '/x/auditbench_mysql_9.7.failed.log',
      logTail: ['dpkg: error processing package mysql-server (--configure):'],
    };
    expect(whyUnavailable({ ...base, present: false, failure })).toEqual({
      reason:
        "its image build failed at 2026-12-01T00:40:00Z: 'apt-get install mysql-server' failed in the chroot; whole log: /x/auditbench_mysql_9.7.failed.log",
      details: ['dpkg: error processing package mysql-server (--configure):'],
    });
  });
});
