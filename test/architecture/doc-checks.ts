import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { filesUnder, isTest, root } from './source-graph.ts';

// Checks of what a doc or a help text says, as pure functions of its text, so a test can plant a false line into a
// copy and see it named. Each returns one line per problem: `<doc>:<line>: <what>: <why>`.

export interface Line {
  doc: string;
  line: number;
  text: string;
}

/** Each fenced block of a text: its language and its lines. */
export function codeBlocks(doc: string, text: string): { lang: string; lines: Line[] }[] {
  const blocks: { lang: string; lines: Line[] }[] = [];
  let open: { lang: string; lines: Line[] } | null = null;
  text.split('\n').forEach((line, i) => {
    const fence = /^\s*```(\w*)/.exec(line);
    if (fence) {
      if (open) blocks.push(open);
      open = open ? null : { lang: fence[1] ?? '', lines: [] };
    } else open?.lines.push({ doc, line: i + 1, text: line });
  });
  return blocks;
}

/** The lines of a text outside its fenced blocks. */
export function proseLines(doc: string, text: string): Line[] {
  let fenced = false;
  return text.split('\n').flatMap((line, i) => {
    if (/^\s*```/.test(line)) {
      fenced = !fenced;
      return [];
    }
    return fenced ? [] : [{ doc, line: i + 1, text: line }];
  });
}

const FILE_EXT = '(?:ts|sh|md|json|ya?ml)';

/** Names the docs may give that are no file here and none the code writes or reads, each with why. */
export const notFiles = [
  { name: 'offset-extract.sh', why: "McAfee AUDIT's own script (docs/plugins.md)" },
  { name: 'deploy-pages.yml', why: "another project's workflow, cited for a pinned commit" },
  { name: 'data-openbeta.yml', why: "another project's workflow, cited for a pinned commit" },
  { name: 'mcafee-completeness.ts', why: 'a file the architecture notes say went into its profile' },
  { name: 'example-sweep.test.ts', why: 'a file test-suites.md says was merged into runs.suite.ts' },
];

/** Every file of the repository by its base name, and the file names the product's code spells out. */
export interface FileIndex {
  basenames: Set<string>;
  namedInCode: Set<string>;
}

export function fileIndex(): FileIndex {
  const all = filesUnder('.', (f) => !/^\.\/(\.git|reports|dist)\//.test(f));
  const code = ['src', 'reporters', 'suites', 'scripts']
    .flatMap((dir) => filesUnder(dir, (f) => /\.(ts|sh|mjs)$/.test(f) && !isTest(f)))
    .concat('vitest.config.ts');
  const spelled = new RegExp(`[\\w.-]+\\.${FILE_EXT}\\b`, 'g');
  return {
    basenames: new Set(all.map((f) => path.posix.basename(f))),
    namedInCode: new Set(code.flatMap((f) => readFileSync(path.join(root, f), 'utf8').match(spelled) ?? [])),
  };
}

const globToRegExp = (glob: string) =>
  new RegExp(
    `^${glob
      .split(/(\*|<[^>]+>)/)
      .map((part) =>
        part === '*' || /^<.+>$/.test(part) ? '.*' : part.replace(/[.+?^${}()|[\]\\]/g, '\\$&'),
      )
      .join('')}$`,
  );

/**
 * Why a file name names nothing, or null: its base name must be a file's here, or one the code writes or reads
 * (results.json); a pattern (`*.suite.ts`, `<plugin>.ts`) must match one; a bare ending (`.d.ts`) must end one.
 */
export function fileNameProblem(name: string, index: FileIndex): string | null {
  const base = path.posix.basename(name);
  if (notFiles.some((n) => n.name === base)) return null;
  const names = [...index.basenames];
  if (!name.includes('/') && /^\.[\w.-]+$/.test(name))
    return names.some((b) => b.endsWith(name)) ? null : 'no file here ends so';
  if (/[*<]/.test(base))
    return names.some((b) => globToRegExp(base).test(b)) ? null : 'the pattern matches no file';
  return index.basenames.has(base) || index.namedInCode.has(base)
    ? null
    : 'no file of that name here, and the code names none';
}

/** Kind 1: a backticked file name in prose (`gate-workload.ts`) that names no file. */
export function unknownFileNames(doc: string, text: string, index: FileIndex): string[] {
  const span = new RegExp(`\`([^\`\\s]+\\.${FILE_EXT})\``, 'g');
  return proseLines(doc, text).flatMap((l) =>
    [...l.text.matchAll(span)].flatMap((m) => {
      const problem = fileNameProblem(m[1] ?? '', index);
      return problem ? [`${l.doc}:${l.line}: ${m[1]}: ${problem}`] : [];
    }),
  );
}

/** Kind 2: a help text naming an AUDITBENCH_* variable nothing reads, or a file that does not exist. */
export function helpTextProblems(
  command: string,
  text: string,
  variables: Set<string>,
  index: FileIndex,
): string[] {
  const unread = [...new Set(text.match(/\bAUDITBENCH_[A-Z0-9_]*[A-Z0-9]\b/g) ?? [])]
    .filter((name) => !variables.has(name))
    .map((name) => `${command} --help: ${name}: no code reads it`);
  const token = new RegExp(`(?<![\\w/.<>*-])([\\w./<>*-]*\\.${FILE_EXT})(?![\\w-])`, 'g');
  const files = [...text.matchAll(token)].flatMap((m) => {
    const name = (m[1] ?? '').replace(/^\.\//, '');
    const problem = fileNameProblem(name, index);
    return problem ? [`${command} --help: ${name}: ${problem}`] : [];
  });
  return [...unread, ...files];
}

/**
 * Kind 3: the CLI reference (the table under `## The command line`) against the commands main.ts registers: one
 * line per command it leaves out, and per row naming a command there is not.
 */
export function cliReferenceProblems(doc: string, text: string, commands: string[]): string[] {
  const section = /^## The command line\n([\s\S]*?)(?=^## |(?![\s\S]))/m.exec(text)?.[1];
  if (section === undefined) return [`${doc}: no '## The command line' section`];
  const rows = [...section.matchAll(/^\| `auditbench ([a-z][\w-]*)/gm)].map((m) => m[1] ?? '');
  return [
    ...commands.filter((c) => !rows.includes(c)).map((c) => `${doc}: the CLI reference leaves out '${c}'`),
    ...rows
      .filter((r) => !commands.includes(r))
      .map((r) => `${doc}: the CLI reference names '${r}', a command main.ts does not register`),
  ];
}

interface ValidationError {
  path?: string;
  title: string;
  detail?: string;
  location?: { line: number };
  states?: { errors: ValidationError[] }[];
}
interface Validator {
  validateWorkflow: (src: string) => { errors: ValidationError[] };
  validateAction: (src: string) => { errors: ValidationError[] };
}

// @action-validator/cli (the dev dependency `npm run lint:actions` runs) is a thin wrapper of its core's WebAssembly
// validator; calling the core in-process checks a block in milliseconds, where a process each would take seconds.
const fromCli = createRequire(createRequire(import.meta.url).resolve('@action-validator/cli/package.json'));
const validator = fromCli('@action-validator/core') as Validator;

/** A one_of's closest form is the one with the fewest leaf errors: a job's is `runs-on`, not a reusable call. */
function describeErrors(errors: ValidationError[]): string[] {
  return errors.flatMap((e) => {
    if (e.states && e.states.length > 0) {
      const forms = e.states.map((s) => describeErrors(s.errors));
      return forms.reduce((best, form) => (form.length < best.length ? form : best));
    }
    const at = e.location ? ` at the block's line ${e.location.line}` : '';
    return [`${e.path || '/'}: ${e.title}${e.detail ? ` (${e.detail})` : ''}${at}`];
  });
}

const indent = (text: string, spaces: number) =>
  text
    .split('\n')
    .map((l) => (l.trim() ? `${' '.repeat(spaces)}${l}` : l))
    .join('\n');

/**
 * A YAML block as the linter sees it: a whole workflow as it is; jobs without `on:` under an `on:`; a `steps:` key
 * or a list of steps in one job that has its `runs-on`; an action's file (`runs:`) as an action. Null: not a workflow.
 */
export function asLinted(yaml: string): { kind: 'workflow' | 'action'; text: string } | null {
  const top = (key: string) => new RegExp(`^${key}:`, 'm').test(yaml);
  const job = 'on: workflow_dispatch\njobs:\n  fragment:\n    runs-on: ubuntu-24.04\n';
  if (top('runs')) return { kind: 'action', text: yaml };
  if (top('jobs')) return { kind: 'workflow', text: top('on') ? yaml : `on: workflow_dispatch\n${yaml}` };
  if (top('steps')) return { kind: 'workflow', text: `${job}${indent(yaml, 4)}` };
  if (/^- (uses|run|name):/m.test(yaml))
    return { kind: 'workflow', text: `${job}    steps:\n${indent(yaml, 6)}` };
  return null;
}

/** Kind 4: each YAML block the action linter rejects, with its errors. */
export function workflowProblems(doc: string, text: string): string[] {
  return codeBlocks(doc, text)
    .filter((b) => b.lang === 'yaml' || b.lang === 'yml')
    .flatMap((block) => {
      const linted = asLinted(block.lines.map((l) => l.text).join('\n'));
      if (!linted) return [];
      const { errors } =
        linted.kind === 'action'
          ? validator.validateAction(linted.text)
          : validator.validateWorkflow(linted.text);
      const start = (block.lines[0]?.line ?? 1) - 1;
      return errors.length === 0 ? [] : [`${doc}:${start}: ${describeErrors(errors).join('; ')}`];
    });
}
