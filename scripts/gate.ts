// `npm run gate [-- --list]` in auditbench's own clone: a shim for `auditbench gate` (src/cli/commands/gate.ts), kept for
// the scripts and habits that call it. The rules and the measurement live in src/gate/.
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { runGate } from '../src/cli/commands/gate.ts';

const packageDir = fileURLToPath(new URL('..', import.meta.url));
const { version } = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as {
  version: string;
};
runGate(process.argv.slice(2), {
  userDir: process.cwd(),
  packageDir,
  version,
  env: process.env,
  stdout: (text) => process.stdout.write(text),
  stderr: (text) => process.stderr.write(text),
}).then(
  (code) => {
    process.exitCode = code;
  },
  (error: unknown) => {
    process.stderr.write(`auditbench gate: ${error instanceof Error ? error.message : String(error)}\n`);
    process.exitCode = 2;
  },
);
