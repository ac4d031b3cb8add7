import { describe, expect, test } from 'vitest';
import { cnfValue, settingProblem, sqlLiteral, toCnfOptions, toSqlLiterals } from './settings.ts';

describe('sqlLiteral', () => {
  test.for([
    [1_073_741_824, '1073741824'],
    [true, 'ON'],
    [false, 'OFF'],
    ['CONNECT', "'CONNECT'"],
    ['', "''"],
    [['QUERY_DDL', 'QUERY_DCL'], "'QUERY_DDL,QUERY_DCL'"],
    ["o'brien", "'o''brien'"],
    ['a\\b', "'a\\\\b'"],
  ] as const)('%j → %s', ([value, literal]) => {
    expect(sqlLiteral(value)).toBe(literal);
  });
});

describe('cnfValue', () => {
  test.for([
    ['CONNECT', 'CONNECT'],
    [['CONNECT', 'QUERY_DDL'], 'CONNECT,QUERY_DDL'],
    ['', '""'],
    ['app user', '"app user"'],
    ['a#b', '"a#b"'],
    [9, '9'],
  ] as const)('%j → %s', ([value, text]) => {
    expect(cnfValue(value)).toBe(text);
  });
});

describe('settingProblem', () => {
  test.for([
    ['server_audit_events', 'CONNECT', null],
    ['server-audit-events', 'CONNECT', null],
    ['server_audit_events; DROP TABLE t', 'x', 'is not a server variable name'],
    ['x', 'two\nlines', 'must be one line'],
    ['x', Number.NaN, 'finite number'],
    ['x', ['a,b'], 'give its items separately'],
  ] as const)('%s = %j', ([name, value, problem]) => {
    const found = settingProblem(name, value);
    if (problem === null) expect(found).toBeNull();
    else expect(found).toContain(problem);
  });
});

test('names are normalised for SET GLOBAL and written loose- for my.cnf', () => {
  expect(toSqlLiterals({ 'Server-Audit-Events': 'CONNECT' })).toEqual({ server_audit_events: "'CONNECT'" });
  expect(toCnfOptions({ 'server-audit-events': ['CONNECT'] })).toEqual({
    'loose-server_audit_events': 'CONNECT',
  });
});
