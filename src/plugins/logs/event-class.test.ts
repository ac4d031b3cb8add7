import { readFileSync } from 'node:fs';
import { describe, expect, test } from 'vitest';
import { countEvents, eventClass } from './event-class.ts';
import { parseMcafeeJson } from './mcafee-json.ts';
import { parseServerAuditLog } from './server-audit-log.ts';

const recorded = (name: string) =>
  readFileSync(new URL(`../../../fixtures/logs/${name}`, import.meta.url), 'utf8');

describe('eventClass', () => {
  test("server_audit's classes: CONNECT, QUERY and TABLE", () => {
    const { events } = parseServerAuditLog(recorded('server-audit-10.11.log'));
    const classes = new Set(events.map((e) => eventClass('server_audit', e)));
    expect([...classes].every((c) => ['CONNECT', 'QUERY', 'TABLE'].includes(c))).toBe(true);
    expect(classes).toContain('TABLE');
  });

  test("McAfee's own cmd, not the operation it generalises to", () => {
    const { events } = parseMcafeeJson(recorded('mcafee-audit-10.11.19.log'));
    const classes = new Set(events.map((e) => eventClass('mcafee_json', e)));
    expect(classes).toContain('set_option');
    expect(classes).toContain('Quit');
    expect(classes).not.toContain('QUERY');
  });

  test('counts by class and by user', () => {
    const { events } = parseServerAuditLog(
      [
        "20261130 00:43:42,vm,app,localhost,4,7,QUERY,,'SELECT 1',0",
        '20261130 00:43:42,vm,app,localhost,4,11,READ,shop,t1,',
        '20261130 00:43:42,vm,root,localhost,5,0,CONNECT,,,0',
        '',
      ].join('\n'),
    );
    expect(countEvents('server_audit', events)).toEqual({
      byClass: { QUERY: 1, TABLE: 1, CONNECT: 1 },
      byUser: { app: 2, root: 1 },
    });
  });
});
