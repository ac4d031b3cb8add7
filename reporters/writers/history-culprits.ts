import type { Comparison, Culprit } from '../../src/history/compare.ts';
import type { CountedComparison } from '../../src/history/counted-compare.ts';
import { culpritLog } from '../../src/history/culprit-log.ts';
import type { HistoryEntry } from '../../src/history/entry.ts';
import { oneLine } from '../../src/markdown/markdown.ts';

const at = (e: HistoryEntry) =>
  `${oneLine(e.commit.slice(0, 7))} (${oneLine(e.recordedAt.slice(0, 16).replace('T', ' '))} UTC)`;

/** The failing comparisons' last good and first bad commits, each with the commits between that touched `files`. */
export async function culpritLines(
  failing: ReadonlyArray<{ channel: 'wall clock' | 'counted'; comparison: Comparison | CountedComparison }>,
  files: readonly string[],
): Promise<string[]> {
  const lines: string[] = [];
  for (const { channel, comparison } of failing) {
    if (comparison.kind !== 'compared') continue;
    const culprit: Culprit | null = comparison.culprit;
    const run = oneLine(comparison.current.runId ?? comparison.current.title);
    if (!culprit) {
      lines.push(`${run} (${channel}): no entry before the first beyond the limit`);
      continue;
    }
    const { lastGood, firstBad } = culprit;
    lines.push(`${run} (${channel}): last good ${at(lastGood)}, first bad ${at(firstBad)}`);
    const log = await culpritLog(lastGood.commit, firstBad.commit, files);
    if ('reason' in log) {
      lines.push(`  (no git log: ${oneLine(log.reason)})`);
      continue;
    }
    lines.push(
      `  git log --oneline ${lastGood.commit.slice(0, 7)}..${firstBad.commit.slice(0, 7)} -- ${log.files.map(oneLine).join(' ')}:`,
      ...(log.lines.length > 0
        ? log.lines.map((l) => `    ${oneLine(l)}`)
        : ['    (no commit between them touched these files)']),
    );
  }
  return lines;
}
