// A run's base and head configurations as the two arms of one measurement (src/bench/subject.ts).
import type { ComparisonDesign, MeasuredSubject } from '../bench/subject.ts';
import { normaliseName } from '../config/settings.ts';
import { type Step, setGlobals } from '../plugins/steps.ts';
import type { ResolvedRun } from '../runs/runs.ts';

const normalised = (values: Record<string, string>): Record<string, string> =>
  Object.fromEntries(Object.entries(values).map(([k, v]) => [normaliseName(k), v]));

/** SET GLOBAL names one side sets and the other leaves at the server's value: that value must be read first. */
export function unsetOnOneSide(base: ResolvedRun, head: ResolvedRun): string[] {
  const [b, h] = [normalised(base.settings), normalised(head.settings)];
  return [...new Set([...Object.keys(b), ...Object.keys(h)])]
    .filter((name) => !(name in b && name in h))
    .sort();
}

/**
 * The base and head arms. Each arm sets every setting either side sets (the server's own value, read after the
 * install, where that side leaves it unset), then enables logging. Startup options the server switches while it runs
 * (`switched`, option-classes.ts) are set the same way, each arm its own value or DEFAULT. With the restarts design,
 * each arm first writes its own startup options to my.cnf, removes the other's, and restarts, which also resets every
 * SET GLOBAL value.
 */
export function comparisonSubject(
  base: ResolvedRun,
  head: ResolvedRun,
  opts: {
    design: ComparisonDesign;
    /** The server's own values of the settings one side leaves unset (unsetOnOneSide), as SQL literals. */
    serverValues: Record<string, string>;
    switched?: { base: Record<string, string>; head: Record<string, string> } | null;
  },
): MeasuredSubject {
  const { design, serverValues, switched = null } = opts;
  const arm = (own: ResolvedRun, other: ResolvedRun): Step[] => {
    // A SET GLOBAL setting of the run wins over its option file's value, as resolveRun lets it.
    const options = design === 'restarts' ? {} : own === base ? switched?.base : switched?.head;
    const settings = { ...serverValues, ...options, ...normalised(own.settings) };
    const startup: Step[] =
      design === 'restarts'
        ? [
            {
              kind: 'config',
              edit: {
                set: own.startupOptions,
                unset: Object.keys(other.startupOptions).filter((name) => !(name in own.startupOptions)),
              },
            },
            { kind: 'restart' },
          ]
        : [];
    return [...startup, ...setGlobals(settings), ...own.profile.enable];
  };
  return {
    label: `${head.id} base/head`,
    arms: { off: arm(base, head), on: arm(head, base) },
    log: head.profile,
  };
}
