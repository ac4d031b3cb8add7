import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, test } from 'vitest';
import { commandLineProblem, commands, globalUsage } from '../../src/cli/main.ts';
import { retiredVariables } from '../../src/config/policy.ts';
import {
  asLinted,
  cliReferenceProblems,
  codeBlocks,
  fileIndex,
  helpTextProblems,
  type Line,
  notFiles,
  unknownFileNames,
  workflowProblems,
} from './doc-checks.ts';
import { filesUnder, NAME, root, variablesRead } from './source-graph.ts';

// The users' and engineers' docs say what is true of the code today. docs/measurements/ is left out: each file there
// is a dated study and names the paths and settings of its day.
const docs = ['README.md', 'ARCHITECTURE.md', ...filesUnder('docs', (f) => /^docs\/[^/]+\.md$/.test(f))];
const text = (doc: string) => readFileSync(path.join(root, doc), 'utf8');

/** Where each match of `pattern` is in `doc`, by line. */
function mentions(doc: string, pattern: RegExp): { doc: string; line: number; found: string }[] {
  return text(doc)
    .split('\n')
    .flatMap((line, i) =>
      [...line.matchAll(pattern)].map((m) => ({ doc, line: i + 1, found: m[1] ?? m[0] })),
    );
}

// A path into one of the project's folders, also as ./src/… or ../src/…; not the tail of another path (dist/src/…).
const PATH = /(?<![\w./<>-])(?:\.{1,2}\/)*((?:src|scripts|suites|reporters|fixtures|examples)\/[\w.*<>/-]*)/g;

/** Paths the docs name that are not this repository's, each with why; an entry no doc names any more fails. */
const notOurs = [
  { doc: 'docs/faults.md', path: 'src/audit_plugin.cc', why: "McAfee AUDIT's source" },
  { doc: 'docs/faults.md', path: 'src/audit_handler.cc', why: "McAfee AUDIT's source" },
  { doc: 'docs/plugins.md', path: 'src/audit_plugin.cc', why: "McAfee AUDIT's source" },
  { doc: 'docs/plugins.md', path: 'src/audit_handler.cc', why: "McAfee AUDIT's source" },
  { doc: 'docs/plugins.md', path: 'src/audit_offsets.cc', why: "McAfee AUDIT's source" },
  { doc: 'docs/your-repository.md', path: 'scripts/postinstall', why: "protobufjs's install script" },
  {
    doc: 'docs/architecture-notes.md',
    path: 'src/gate/gate.ts',
    why: 'where the gate command was before it moved',
  },
  {
    doc: 'docs/architecture-notes.md',
    path: 'src/stats/simulation.ts',
    why: 'a file the notes say was removed',
  },
  {
    doc: 'docs/architecture-notes.md',
    path: 'src/completeness/mcafee-completeness.ts',
    why: 'a file the notes say went into its profile',
  },
];

/** `src/profiles/<plugin>.ts`, `suites/*.suite.ts`: a pattern must match a file. */
function matchesAFile(pattern: string): boolean {
  const [top] = pattern.split('/');
  const source = pattern
    .split(/(\*\*|\*|<[^>]+>)/)
    .map((part) =>
      part === '**' ? '.*' : part === '*' || /^<.+>$/.test(part) ? '[^/]+' : part.replace(/[.]/g, '\\.'),
    )
    .join('');
  const re = new RegExp(`^${source}$`);
  return filesUnder(top ?? '', () => true).some((file) => re.test(file));
}

const exists = (p: string) =>
  /[*<]/.test(p) ? matchesAFile(p) : existsSync(path.join(root, p.replace(/[.]+$/, '')));

describe('paths', () => {
  const named = docs
    .flatMap((doc) => mentions(doc, PATH))
    .map((m) => ({ ...m, found: m.found.replace(/[.]+$/, '') }));
  const excused = (m: { doc: string; found: string }) =>
    notOurs.some((n) => n.doc === m.doc && n.path === m.found);

  test('every src/, scripts/, suites/, reporters/, fixtures/ and examples/ path a doc names exists', () => {
    const missing = named.filter((m) => !excused(m) && !exists(m.found));
    expect(missing.map((m) => `${m.doc}:${m.line}: ${m.found}`)).toEqual([]);
  });

  test('each path excused as not this repository’s is still named where it says, and is indeed not here', () => {
    for (const n of notOurs) {
      expect(
        named.some((m) => m.doc === n.doc && m.found === n.path),
        `${n.doc}: ${n.path}`,
      ).toBe(true);
      expect(exists(n.path), n.path).toBe(false);
    }
  });

  test('the scan finds paths in every form the docs use', () => {
    const found = new Set(named.map((m) => m.found));
    expect([...found]).toEqual(
      expect.arrayContaining(['src/config/env.ts', 'src/runs/define-config.ts', 'src/profiles/<plugin>.ts']),
    );
    expect(named.length).toBeGreaterThan(200);
  });
});

test('every AUDITBENCH_* name a doc mentions is one the code reads, or one it refuses as retired', () => {
  const read = new Set([
    ...variablesRead(),
    ...Object.keys(retiredVariables).map((name) => `AUDITBENCH_${name}`),
  ]);
  const unknown = docs.flatMap((doc) => mentions(doc, NAME)).filter((m) => !read.has(m.found));
  expect(unknown.map((m) => `${m.doc}:${m.line}: ${m.found}`)).toEqual([]);
});

/**
 * The shell lines of a block: a yaml block's `run:` values; in a shell block every line, or only the `$ ` lines when
 * it shows a session; an untagged block is a command line only after a `$ ` prompt (otherwise it is output).
 */
function shellLines({ lang, lines }: { lang: string; lines: Line[] }): Line[] {
  if (lang === 'yaml' || lang === 'yml')
    return lines.flatMap((l) => {
      const run = /^\s*(?:-\s+)?run:\s*(.+)$/.exec(l.text)?.[1];
      return run ? [{ ...l, text: run }] : [];
    });
  if (!['', 'sh', 'bash', 'shell', 'console'].includes(lang)) return [];
  const prompted = lines.filter((l) => /^\s*\$ /.test(l.text));
  if (prompted.length > 0) return prompted.map((l) => ({ ...l, text: l.text.replace(/^\s*\$ /, '') }));
  return lang === '' ? [] : lines;
}

/** Words of one simple command, quotes removed; a GitHub expression `${{ … }}` stands for the value 1. */
const words = (command: string): string[] =>
  [...command.replace(/\$\{\{[^}]*\}\}/g, '1').matchAll(/'([^']*)'|"([^"]*)"|(\S+)/g)].map(
    (m) => m[1] ?? m[2] ?? m[3] ?? '',
  );

/** The arguments after `./auditbench`, `auditbench` or `npx [options] auditbench` in each command of a line. */
function auditbenchCalls(line: string): string[][] {
  const code = line.replace(/(^|\s)#.*$/, '');
  return code.split(/&&|\|\||;|\|/).flatMap((command) => {
    const argv = words(command);
    while (argv[0] !== undefined && /^[A-Za-z_]\w*=/.test(argv[0])) argv.shift();
    if (argv[0] === 'npx') {
      argv.shift();
      while (argv[0]?.startsWith('-')) argv.shift();
    }
    return argv[0] === './auditbench' || argv[0] === 'auditbench' ? [argv.slice(1)] : [];
  });
}

describe('command lines', () => {
  const calls = docs
    .flatMap((doc) => codeBlocks(doc, text(doc)))
    .flatMap(shellLines)
    .flatMap((l) => auditbenchCalls(l.text).map((argv) => ({ ...l, argv })));

  test('every auditbench command line in a code block passes the CLI’s own argument checks', async () => {
    const refused: string[] = [];
    for (const call of calls) {
      const problem = await commandLineProblem(call.argv);
      if (problem) refused.push(`${call.doc}:${call.line}: auditbench ${call.argv.join(' ')}: ${problem}`);
    }
    expect(refused).toEqual([]);
  });

  test('the scan finds the README’s commands, the Actions example and a session’s prompt', () => {
    const found = calls.map((c) => `${c.doc} ${c.argv.join(' ')}`);
    expect(found).toEqual(
      expect.arrayContaining([
        'README.md bench',
        'README.md test',
        'docs/your-repository.md matrix --shard 1/3',
        'docs/gate.md gate --list',
        'docs/gate.md gate -- --reporter=dot',
      ]),
    );
  });

  test.for([
    [['bench', '--bogus'], "unknown option '--bogus'"],
    [['test', '--projct', 'unit'], "unknown option '--projct' (did you mean --project?)"],
    [['gate', 'main'], "unexpected argument 'main'"],
    [['list', '--jsn'], "unknown option '--jsn' (did you mean --json?)"],
    [['matrix', '--shard', '4/3'], '--shard must be <i>/<n>'],
    [['help', 'nonsense'], "help: no command 'nonsense'"],
    [['bnech'], "unknown command 'bnech' (did you mean bench?)"],
  ] as const)('the check refuses %j as the CLI would', async ([argv, problem]) => {
    expect(await commandLineProblem([...argv])).toContain(problem);
  });
});

/** `text` with `line` put after its first line: a planted copy, its own lines still numbered as they would be. */
const planted = (doc: string, line: string) => text(doc).replace('\n', `\n${line}\n`);

describe('file names in prose', () => {
  const index = fileIndex();

  test('every backticked file name in a doc’s prose names a file here, or one the code writes or reads', () => {
    expect(docs.flatMap((doc) => unknownFileNames(doc, text(doc), index))).toEqual([]);
  });

  test('a planted name of a removed file is named, with its line', () => {
    const copy = planted('docs/gate.md', 'The budget is in `gate-workload.ts`, the plan in `plan.ts`.');
    expect(unknownFileNames('docs/gate.md', copy, index)).toEqual([
      'docs/gate.md:2: gate-workload.ts: no file of that name here, and the code names none',
    ]);
  });

  test('each name excused as no file here is still named by a doc, and is indeed no file', () => {
    const all = docs.map(text).join('\n');
    for (const n of notFiles) {
      expect(all, n.name).toContain(`${n.name}\``);
      expect(index.basenames.has(n.name), n.name).toBe(false);
    }
  });
});

describe('help texts', () => {
  const index = fileIndex();
  const variables = new Set(variablesRead());
  const texts = [
    { command: 'auditbench', text: globalUsage() },
    ...Object.entries(commands).map(([name, c]) => ({ command: name, text: `${c.summary}\n${c.usage}` })),
  ];

  test('no help text names a variable nothing reads or a file that does not exist', () => {
    expect(texts.flatMap((t) => helpTextProblems(t.command, t.text, variables, index))).toEqual([]);
  });

  test('a planted variable and a planted file are named', () => {
    const usage = `${commands.bench?.usage}Reads AUDITBENCH_NO_SUCH_THING, then runs scripts/gone.sh.\n`;
    expect(helpTextProblems('bench', usage, variables, index)).toEqual([
      'bench --help: AUDITBENCH_NO_SUCH_THING: no code reads it',
      'bench --help: scripts/gone.sh: no file of that name here, and the code names none',
    ]);
  });

  test('the scan finds the files and variables the help texts name', () => {
    const all = texts.map((t) => t.text).join('\n');
    expect(all).toContain('scripts/setup.sh');
    expect(all).toContain('AUDITBENCH_WORKLOAD');
  });
});

describe('the CLI reference', () => {
  const doc = 'docs/your-repository.md';
  const names = Object.keys(commands);

  test('docs/your-repository.md’s CLI reference names every command main.ts registers, and no other', () => {
    expect(cliReferenceProblems(doc, text(doc), names)).toEqual([]);
  });

  test('a reference with a command left out, or one that does not exist, is named', () => {
    const copy = text(doc)
      .split('\n')
      .filter((line) => !line.startsWith('| `auditbench matrix'))
      .join('\n')
      .replace('| `auditbench list', '| `auditbench lint` | lints |\n| `auditbench list');
    expect(cliReferenceProblems(doc, copy, names)).toEqual([
      "docs/your-repository.md: the CLI reference leaves out 'matrix'",
      "docs/your-repository.md: the CLI reference names 'lint', a command main.ts does not register",
    ]);
  });
});

describe('workflow YAML blocks', () => {
  test('every workflow, jobs or steps block in README.md and docs/ passes the action linter', () => {
    expect(docs.flatMap((doc) => workflowProblems(doc, text(doc)))).toEqual([]);
  });

  test('a planted block of jobs with no runs-on is rejected, naming it; a steps fragment is linted in a job', () => {
    const jobs = '```yaml\njobs:\n  x:\n    steps:\n      - run: npx auditbench bench\n```';
    expect(workflowProblems('README.md', planted('README.md', jobs))).toContain(
      'README.md:2: /jobs/x/runs-on: This property is required',
    );
    const steps = '```yaml\n- uses: <owner>/auditbench@<ref>\n  with: { config: auditbench.config.ts }\n```';
    expect(workflowProblems('x.md', steps)).toEqual([]);
    // A `{` inside a flow mapping ends a plain value: the README's matrix block breaks so on `${{ matrix.shard }}`.
    const flow = '```yaml\n- uses: a/b@1\n  with: { name: m-{{ matrix.shard }} }\n```';
    expect(workflowProblems('x.md', flow)).toEqual([expect.stringMatching(/^x\.md:1: \/: Parse Error/)]);
  });

  test('the scan lints the README’s and your-repository.md’s workflows', () => {
    const linted = docs.flatMap((doc) =>
      codeBlocks(doc, text(doc)).filter(
        (b) => b.lang === 'yaml' && asLinted(b.lines.map((l) => l.text).join('\n')),
      ),
    );
    expect(linted.length).toBeGreaterThanOrEqual(3);
  });
});
