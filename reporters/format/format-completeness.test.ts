import { describe, expect, test } from 'vitest';
import type { CompletenessPhase, PluginResult } from '../../src/results/schema.ts';
import {
  completenessContent,
  formatCompletenessTable,
  hasCompleteness,
  phaseSummary,
} from './format-completeness.ts';
import { sectionMarkdown } from './format-markdown.ts';

const kind = (name: string, over: Partial<CompletenessPhase['kinds'][number]> = {}) => ({
  kind: name,
  claim: 'logged' as const,
  sent: 20,
  acked: 20,
  refused: 0,
  unanswered: 0,
  logged: 20,
  lost: 0,
  duplicated: 0,
  strays: 0,
  unansweredLogged: 0,
  ok: true,
  ...over,
});

const crash: CompletenessPhase = {
  phase: 'crash',
  kinds: [
    kind('read', { sent: 31, acked: 30, unanswered: 1, logged: 29, lost: 1 }),
    kind('ddl', { claim: 'absent', logged: 0 }),
  ],
  rotations: 0,
  filesDeleted: 0,
  logFiles: 7,
  tornLines: 1,
  damagedLines: 0,
  loadTps: 412.4,
  lostAtCrash: 1,
  afterRestart: {
    expected: { installed: true, loggingOn: false },
    observed: { installed: true, loggingOn: false },
  },
  settings: { server_audit_logging: 'OFF' },
  durabilityNote: 'no sync setting',
  durationS: 14.2,
  ok: true,
  reason: '1 acked markers lost at the crash, 1 torn lines',
};

const result = { title: 'MariaDB server_audit', completeness: [crash] } as unknown as PluginResult;

describe('format-completeness', () => {
  test('the summary line says rotations, load, torn lines, crash losses and the state after restart', () => {
    expect(phaseSummary(crash)).toBe(
      'crash: ok, 0 rotations, 7 log files, under 412 TPS, 1 torn lines, 0 unparsed, lost at crash: 1, after restart installed=true logging=false, 14 s',
    );
  });

  test('the text table aligns one row per kind', () => {
    const lines = formatCompletenessTable(crash).split('\n');
    expect(lines[0]).toMatch(/^kind\s+claim\s+sent\s+acked\s+logged\s+lost\s+duplicated\s+unanswered$/);
    expect(lines[1]).toMatch(/read\s+logged\s+31\s+30\s+29\s+1\s+0\s+1$/);
    expect(lines).toHaveLength(4);
  });

  test('summary.md: a table per phase, with the crash finding and the buffering note', () => {
    const md = sectionMarkdown('Completeness', completenessContent([result])).join('\n');
    expect(md).toContain('| read | logged | 31 | 30 | 29 | 1 | 0 | 1 |');
    expect(md).toContain('- 1 acked markers lost at the crash, 1 torn lines');
    expect(md).toContain('- no sync setting');
  });

  test('nothing to show without completeness phases', () => {
    const plain = { title: 'x' } as unknown as PluginResult;
    expect(hasCompleteness([plain])).toBe(false);
    expect(completenessContent([plain]).tables).toEqual([]);
  });

  test('one table per phase, captioned by the run and the phase', () => {
    expect(completenessContent([result]).tables?.map((t) => t.caption)).toEqual([
      'MariaDB server_audit: crash',
    ]);
  });
});
