import type { LogParseResult } from '../plugins/audit-event.ts';
import { INCOMPLETE_LINE, INCOMPLETE_RECORD } from '../plugins/logs/index.ts';

export interface LogIntegrity {
  /** Last lines (or records) without their end: what a writer killed mid-write leaves. Reported, not fatal. */
  torn: { line: number; reason: string; text: string }[];
  /** Complete lines the parser rejected: damage, or a format the parser does not know. */
  damaged: { line: number; reason: string; text: string }[];
}

const TORN = [INCOMPLETE_LINE, INCOMPLETE_RECORD];
const SAMPLE_CHARS = 200;

/**
 * Splits rejected lines into torn endings and damage. The log readers tag each reason with its file
 * (`<file>: <reason>`), so a torn ending is recognised by how the reason ends.
 */
export function checkIntegrity(rejected: LogParseResult['rejected']): LogIntegrity {
  const integrity: LogIntegrity = { torn: [], damaged: [] };
  for (const r of rejected) {
    const entry = { line: r.line, reason: r.reason, text: r.text.slice(0, SAMPLE_CHARS) };
    if (TORN.some((reason) => r.reason === reason || r.reason.endsWith(`: ${reason}`)))
      integrity.torn.push(entry);
    else integrity.damaged.push(entry);
  }
  return integrity;
}
