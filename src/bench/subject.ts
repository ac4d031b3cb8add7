import type { PluginProfile } from '../plugins/profile.ts';

/** What turning an arm on means: the plugin's enable steps, or for A/A its disable steps again. */
export interface ArmSteps {
  off: PluginProfile['disable'];
  on: PluginProfile['enable'];
}

/**
 * toggle: base and head differ in what the server switches with SET GLOBAL (settings, or startup options it reports
 * dynamic and global), so one toggled run switches between them; reconnect: one of them has session scope, so each
 * arm is its own sysbench run after SET GLOBAL, without a restart; restarts: the rest (read-only options, or a server
 * that gives no READ_ONLY), each arm its own sysbench run after a restart, in ABBA order.
 */
export type ComparisonDesign = 'toggle' | 'reconnect' | 'restarts';

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
