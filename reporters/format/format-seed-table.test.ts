import { readFileSync } from 'node:fs';
import { describe, expect, test } from 'vitest';
import { mcafeeAudit } from '../../src/profiles/mcafee-audit.ts';
import { serverAudit as serverAuditProfile } from '../../src/profiles/server-audit.ts';
import { type PluginResult, resultsFileSchema } from '../../src/results/schema.ts';
import { sectionMarkdown } from './format-markdown.ts';
import {
  findingsContent,
  NOT_SUPPLIED,
  SEED_ROWS,
  type SeedTable,
  seedContent,
  seedTable,
} from './format-seed-table.ts';
import { sectionText } from './format-terminal.ts';

const recorded = resultsFileSchema.parse(
  JSON.parse(
    readFileSync(new URL('../../fixtures/results/results-smoke-server-audit.json', import.meta.url), 'utf8'),
  ),
);
const [serverAudit] = recorded.results;
if (!serverAudit?.measurement) throw new Error('the fixture holds a measured server_audit result');

/**
 * Test double, not a measurement: the recorded server_audit result relabelled as McAfee AUDIT, with its own baseline
 * and the lifecycle answers the McAfee profile describes (1146 logged but not 1064, no rotation, a restart in the
 * uninstall procedure, a second UNINSTALL that took the server down).
 */
const mcafeeDouble: PluginResult = {
  ...serverAudit,
  profileId: 'mcafee_audit',
  plugin: 'AUDIT',
  title: 'McAfee/Trellix AUDIT',
  baselineTps: 600,
  pluginTps: 330,
  overheadPct: 45,
  overheadCi95: [40, 50],
  measurement: { ...serverAudit.measurement, baselineTps: 600, logMbPerMin: 250 },
  logBytesPerTxn: 5100,
  lifecycle: [
    { check: 'rotation', expected: {}, observed: { rotatedFiles: [], withinBound: false }, ok: true },
    {
      check: 'failed-queries',
      expected: [1146],
      observed: [1146],
      ok: true,
      details: { serverAnswered: [1064, 1146] },
    },
    {
      check: 'uninstall',
      expected: { needsRestart: false },
      observed: { needsRestart: false, restartsCleanly: false },
      ok: false,
      details: {
        answers: [{ step: 'my.cnf: add audit_uninstall_plugin=1' }, { step: 'restart the server' }],
        restartError: 'mariadbd exited with signal 11\nstack overflow',
      },
    },
  ],
};

const profileRestarts = mcafeeAudit.uninstall.filter((s) => s.kind === 'restart').length;

const cells = (table: SeedTable, heading: string) => {
  const column = table.columns.find((c) => c.heading === heading);
  return Object.fromEntries(SEED_ROWS.map((row, i) => [row, column?.cells[i]]));
};

describe('seedTable', () => {
  test('none without a measurement of either seed plugin', () => {
    expect(seedTable([])).toBeNull();
    expect(seedTable([{ ...serverAudit, measurement: null }])).toBeNull();
    expect(seedTable([{ ...serverAudit, profileId: 'sql_error_log', plugin: 'SQL_ERROR_LOG' }])).toBeNull();
  });

  test('the recorded server_audit run beside the seed figures, the seed derived from its totals', () => {
    const table = seedTable([serverAudit]);
    if (!table) throw new Error('expected a table');
    expect(table.columns.map((c) => [c.kind, c.heading])).toEqual([
      ['run', 'McAfee/Trellix AUDIT'],
      ['seed', 'McAfee mysql-audit v1.0.9'],
      ['run', 'MariaDB server_audit'],
      ['seed', serverAuditProfile.seed?.label],
    ]);
    // No McAfee library here: the seed's figures stay, beside why this run has none.
    expect(cells(table, 'McAfee/Trellix AUDIT')['TPS without a plugin']).toBe(NOT_SUPPLIED);
    expect(cells(table, 'MariaDB server_audit')).toEqual({
      'TPS without a plugin': '565.6',
      'TPS with the plugin': '520.2',
      'throughput loss % [95% CI]': '7.3 [-24.7, 31.0]',
      'log bytes per transaction': '3350',
      'log MB per minute': '102.8',
      'log format': 'CSV text, a line per event',
      'rotates its log': 'yes, by size (3 rotated files)',
      'logs failed statements': 'yes (1064, 1146)',
      'uninstall needs a restart': 'no',
    });
    const seed = cells(table, serverAuditProfile.seed?.label ?? 'no seed label');
    // 1 − 2166.16 / 3661.01; 1,864 MB / 649,883 transactions; 1,864 MB / 5 min.
    expect([seed['TPS without a plugin'], seed['throughput loss % [95% CI]']]).toEqual([
      '3661.0',
      '40.8 (one run)',
    ]);
    expect([seed['log bytes per transaction'], seed['log MB per minute']]).toEqual(['≈2868', '≈372.8']);
    expect(findingsContent([serverAudit]).list).toEqual([
      'MariaDB server_audit: all 9 lifecycle checks as the profile expects.',
    ]);
  });

  test('both plugins: the seed order, each with its seed column, the differing baselines said', () => {
    const table = seedTable([serverAudit, mcafeeDouble]);
    if (!table) throw new Error('expected a table');
    expect(table.columns.map((c) => c.heading)).toEqual([
      'McAfee/Trellix AUDIT',
      'McAfee mysql-audit v1.0.9',
      'MariaDB server_audit',
      'MariaDB audit plugin 1.1.7',
    ]);
    const mcafee = cells(table, 'McAfee/Trellix AUDIT');
    expect(mcafee['rotates its log']).toBe('no');
    expect(mcafee['logs failed statements']).toBe('some: 1146; not 1064');
    expect(mcafee['uninstall needs a restart']).toBe(
      `yes (${profileRestarts} in the procedure); see findings`,
    );
    expect(cells(table, 'McAfee mysql-audit v1.0.9')['throughput loss % [95% CI]']).toBe('45.5 (one run)');
    expect(table.notes[0]).toContain('Baselines differ');
    expect(table.notes[0]).toContain('McAfee/Trellix AUDIT 600.0, MariaDB server_audit 565.6');
    const findings = findingsContent([serverAudit, mcafeeDouble]).list ?? [];
    expect(findings).toContainEqual(expect.stringMatching(/^McAfee\/Trellix AUDIT: uninstall expected/));
    expect(findings.join('\n')).toContain('restart: mariadbd exited with signal 11');
    expect(findings.join('\n')).not.toContain('stack overflow');
  });

  test('a crash the profile records passes its check and still leads the findings', () => {
    const crashed: PluginResult = {
      ...mcafeeDouble,
      lifecycle: [
        {
          check: 'uninstall',
          expected: { crashed: true },
          observed: { needsRestart: true, crashed: true },
          ok: true,
          details: {
            answers: [],
            crash: 'the server died: Uninstalling AUDIT failed at step 4\nError log tail:\n…',
          },
        },
      ],
    };
    const table = seedTable([crashed]);
    // The procedure never finished answering; its restarts come from the profile.
    expect(cells(table as SeedTable, 'McAfee/Trellix AUDIT')['uninstall needs a restart']).toBe(
      `yes (${profileRestarts} in the procedure); crashed the server`,
    );
    expect(findingsContent([crashed]).list).toEqual([
      'McAfee/Trellix AUDIT: uninstall crashed the server, as the profile records: the server died: Uninstalling AUDIT failed at step 4',
      'McAfee/Trellix AUDIT: all 1 lifecycle checks as the profile expects.',
    ]);
  });

  test("a plugin's finding (log-integrity) passes its check and is listed before the verdict on the checks", () => {
    const finding = "SERVER_AUDIT on mariadb 10.11.19 writes a login's user name raw: …";
    const raw: PluginResult = {
      ...serverAudit,
      lifecycle: [
        {
          check: 'log-integrity',
          expected: { userName: 'raw', databaseName: 'not logged' },
          observed: { userName: 'raw', databaseName: 'not logged' },
          ok: true,
          details: { finding },
        },
      ],
    };
    expect(findingsContent([raw]).list).toEqual([
      `MariaDB server_audit: log-integrity: ${finding}`,
      'MariaDB server_audit: all 1 lifecycle checks as the profile expects.',
    ]);
  });

  test('one shared baseline is said once', () => {
    const table = seedTable([serverAudit, { ...mcafeeDouble, baselineTps: serverAudit.baselineTps }]);
    expect(table?.notes[0]).toBe('Every column of this run was measured against the same baseline.');
  });
});

describe('rendering', () => {
  test('the terminal table stays within 120 columns: a row per measure, the seed columns greyed on the page', () => {
    const content = seedContent([serverAudit, mcafeeDouble]);
    expect(content.tables?.[0]?.head.map((h) => h.className ?? '')).toEqual(['', '', 'seed', '', 'seed']);
    const text = sectionText(content);
    for (const line of text.split('\n')) expect([...line].length).toBeLessThanOrEqual(120);
    expect(text.match(/│ TPS without a plugin/g)).toHaveLength(1);
  });

  test('Markdown: a header and a row per measure, all of one width', () => {
    const lines = sectionMarkdown('seed', seedContent([serverAudit, mcafeeDouble]));
    const rows = lines.filter((l) => l.startsWith('|'));
    expect(rows).toHaveLength(SEED_ROWS.length + 2);
    expect(new Set(rows.map((r) => r.split(' | ').length)).size).toBe(1);
  });
});
