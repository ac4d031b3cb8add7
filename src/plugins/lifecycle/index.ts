import { type AccountSession, serverSession } from '../../servers/account-session.ts';
import type { StartedServer } from '../../servers/started-server.ts';
import { expectationsOn, type PluginProfile } from '../profile.ts';
import { auditsTraffic } from './audits-traffic.ts';
import type { LifecycleContext, LifecycleStep } from './context.ts';
import { logIntegrity } from './log-integrity.ts';
import {
  applySettings,
  disabledIsSilent,
  failedQueries,
  install,
  logsQuery,
  masksPassword,
  parsesCleanly,
} from './logging-checks.ts';
import { restart, uninstall } from './persistence-checks.ts';
import { rotation } from './rotation-check.ts';
import { syslogHeader } from './syslog-check.ts';

export type { LifecycleContext, LifecycleStep } from './context.ts';

/**
 * The lifecycle checks in the order they must run on one server. `beforeMeasure` ends with the plugin installed
 * and logging off (after a restart), ready for the overhead measurement; `afterMeasure` uninstalls it.
 */
export const lifecycleSteps: { beforeMeasure: LifecycleStep[]; afterMeasure: LifecycleStep[] } = {
  beforeMeasure: [
    install,
    auditsTraffic,
    applySettings,
    logsQuery,
    syslogHeader,
    failedQueries,
    masksPassword,
    disabledIsSilent,
    rotation,
    parsesCleanly,
    // After parsesCleanly: the lines a plugin that writes names raw leaves are the finding, not a parse failure.
    logIntegrity,
    restart,
  ],
  afterMeasure: [uninstall],
};

/** The accounts a lifecycle's statements are sent as, and what the run's user filter makes of them. */
export interface LifecycleTraffic {
  checks: AccountSession;
  application: AccountSession;
  audited?: { application: boolean; checks: boolean };
  refusal?: string | null;
}

/** Without `traffic` (unit tests, the matrix) every statement goes as the server's own admin account. */
export function lifecycleContext(
  server: StartedServer,
  profile: PluginProfile,
  traffic?: LifecycleTraffic,
): LifecycleContext {
  const expected = expectationsOn(profile, server.info.flavor);
  const admin = serverSession(server);
  return {
    server,
    profile: movedLog(profile, expected.logFile),
    expected,
    marker: `ab${Date.now().toString(36)}`,
    defaults: {},
    checks: traffic?.checks ?? admin,
    application: traffic?.application ?? admin,
    audited: traffic?.audited ?? { application: true, checks: true },
    refusal: traffic?.refusal ?? null,
  };
}

/** The profile reading its log where the configuration put it (e.g. server_audit_file_path), not at `log.file`. */
function movedLog(profile: PluginProfile, file: string | undefined): PluginProfile {
  const { log } = profile;
  if (file === undefined || log.file === null) return profile;
  return { ...profile, log: { ...log, file } };
}
