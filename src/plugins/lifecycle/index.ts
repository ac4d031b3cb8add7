import type { StartedServer } from '../../servers/started-server.ts';
import { expectationsOn, type PluginProfile } from '../profile.ts';
import type { LifecycleContext, LifecycleStep } from './context.ts';
import {
  applySettings,
  disabledIsSilent,
  failedQueries,
  install,
  logsQuery,
  masksPassword,
  parsesCleanly,
} from './logging-checks.ts';
import { restart, rotation, uninstall } from './persistence-checks.ts';

export type { LifecycleContext, LifecycleStep } from './context.ts';

/**
 * The lifecycle checks in the order they must run on one server. `beforeMeasure` ends with the plugin installed
 * and logging off (after a restart), ready for the overhead measurement; `afterMeasure` uninstalls it.
 */
export const lifecycleSteps: { beforeMeasure: LifecycleStep[]; afterMeasure: LifecycleStep[] } = {
  beforeMeasure: [
    install,
    applySettings,
    logsQuery,
    failedQueries,
    masksPassword,
    disabledIsSilent,
    rotation,
    parsesCleanly,
    restart,
  ],
  afterMeasure: [uninstall],
};

export function lifecycleContext(server: StartedServer, profile: PluginProfile): LifecycleContext {
  const expected = expectationsOn(profile, server.info.flavor);
  return { server, profile, expected, marker: `ab${Date.now().toString(36)}`, defaults: {} };
}
