import { expect, test } from 'vitest';
import { parseServerAuditLog } from '../plugins/logs/server-audit-log.ts';
import { checkIntegrity } from './log-integrity.ts';

test('a torn last line is reported apart from damage', () => {
  const text =
    "20261201 00:10:01,vm,root,h,1,1,QUERY,,'SELECT 1',0\nnot a record\n20261201 00:10:01,vm,root,h,1,2,QUERY,,'SEL";
  const { rejected } = parseServerAuditLog(text);
  const tagged = rejected.map((r) => ({ ...r, reason: `server_audit.log: ${r.reason}` }));
  const integrity = checkIntegrity(tagged);
  expect(integrity.torn.map((t) => t.line)).toEqual([3]);
  expect(integrity.damaged.map((d) => d.line)).toEqual([2]);
});
