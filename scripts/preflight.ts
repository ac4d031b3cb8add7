// Checks every setting before Vitest starts (its JUnit reporter creates junit.xml at once): one line, exit 2.
// Usage: node --import tsx scripts/preflight.ts [--servers]
import { preflight } from '../src/cli/preflight.ts';

try {
  await preflight(process.env, { servers: process.argv.includes('--servers') });
} catch (error) {
  process.stderr.write(`auditbench: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(2);
}
