import type { PluginProfile } from '../plugins/profile.ts';
import type { ArmSteps } from './toggled-run.ts';

/**
 * What a measurement switches between, and what it calls it: a plugin off and on, two configurations of one plugin
 * (a PR's base and head), or the same no-op in both arms (A/A). The measurement loop knows nothing else of it.
 */
export interface MeasuredSubject {
  /** Names the subject in progress lines and errors, e.g. the plugin's name or 'A/A'. */
  label: string;
  /** The steps that set each arm; `off` is also applied before the warm-up and after every block. */
  arms: ArmSteps;
  /** The profile whose log files are followed for bytes written, or null when no log is written (A/A). */
  log: PluginProfile | null;
}

/** A plugin's own off/on arms. */
export const pluginSubject = (profile: PluginProfile): MeasuredSubject => ({
  label: profile.name,
  arms: { off: profile.disable, on: profile.enable },
  log: profile,
});

export { realSysbench, type SysbenchRunner } from '../workload/sysbench-runner.ts';
