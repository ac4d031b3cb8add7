import { gateUsage, runGate } from '../../gate/gate.ts';
import type { CliContext } from '../context.ts';

// The gate's engine is src/gate/; this is its entry in the CLI.
export const summary = 'measure what a branch changed against its base branch, base beside head';

export const usage = gateUsage;

export const run = (argv: string[], context: CliContext): Promise<number> => runGate(argv, context);
