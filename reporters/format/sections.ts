import { completenessContent, hasCompleteness } from './format-completeness.ts';
import { countedContent, hasCounted } from './format-counted.ts';
import { faultRows, faultsContent } from './format-faults.ts';
import { latencyContent, latencyRows } from './format-latency.ts';
import { memoryContent, memoryResults } from './format-memory.ts';
import { perEventContent, perEventResults } from './format-per-event.ts';
import { findingsContent, hasSeedTable, seedContent } from './format-seed-table.ts';
import { sweepContent } from './format-sweep.ts';
import { variantGroups, variantsContent } from './format-variants.ts';
import type { Section } from './section.ts';
import { sweepGroups } from './sweep-groups.ts';

/**
 * Every report's sections, in order. A new table is one entry here and its formatter (a function of the results
 * that returns a SectionContent); the writers render it (format-terminal.ts, format-markdown.ts, html-report.ts).
 */
export const SECTIONS: readonly Section[] = [
  {
    title: 'Configurations compared, cheapest first',
    shows: (results) => variantGroups(results).length > 0,
    content: (results) => variantsContent(variantGroups(results)),
  },
  {
    title: 'Overhead by threads',
    shows: (results) => sweepGroups(results).length > 0,
    content: (results) => sweepContent(sweepGroups(results)),
  },
  {
    title: 'Tail latency, plugin off and on',
    shows: (results) => latencyRows(results).length > 0,
    content: (results) => latencyContent(latencyRows(results), sweepGroups(results)),
  },
  {
    title: 'Server memory, plugin off and on',
    shows: (results) => memoryResults(results).length > 0,
    content: memoryContent,
  },
  {
    title: "The seed's comparison, this run beside it",
    shows: hasSeedTable,
    content: seedContent,
    inOverview: true,
  },
  {
    title: 'Lifecycle findings',
    shows: (results) => results.length > 0,
    content: findingsContent,
    inOverview: true,
  },
  {
    title: 'Completeness (markers sent vs. logged)',
    shows: hasCompleteness,
    content: completenessContent,
  },
  { title: 'Faults', shows: (results) => faultRows(results).length > 0, content: faultsContent },
  {
    title: 'Cost per audited event, and in production',
    shows: (results) => perEventResults(results).length > 0,
    content: perEventContent,
  },
  { title: 'Counted cost per transaction (callgrind)', shows: hasCounted, content: countedContent },
];
