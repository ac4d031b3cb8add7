import type { AuditedTraffic, PluginExpectations, UserFilter } from './profile.ts';

/** A comma-separated user list as the plugins read it: blanks around names ignored, empty entries dropped. */
export const userList = (value: string | undefined): string[] =>
  (value ?? '')
    .split(',')
    .map((name) => name.trim())
    .filter(Boolean);

/**
 * An include list and an exclude list, as server_audit reads them: a non-empty include list logs only its users and
 * the exclude list is then ignored (incl_users wins when both are set); otherwise every user but the excluded ones.
 */
export function includeExcludeFilter(
  settings: Readonly<Record<string, string>>,
  names: { include: string; exclude: string },
): UserFilter | null {
  const include = userList(settings[names.include]);
  const exclude = userList(settings[names.exclude]);
  if (include.length > 0) {
    return {
      setting: `${names.include}=${include.join(',')}`,
      variable: names.include,
      kind: 'include',
      audits: (user) => include.includes(user),
    };
  }
  if (exclude.length > 0) {
    return {
      setting: `${names.exclude}=${exclude.join(',')}`,
      variable: names.exclude,
      kind: 'exclude',
      audits: (user) => !exclude.includes(user),
    };
  }
  return null;
}

/** An exclude list compared without regard to case, as McAfee AUDIT's whitelists are (strcasecmp). */
export function caseInsensitiveExcludeFilter(
  settings: Readonly<Record<string, string>>,
  name: string,
): UserFilter | null {
  const exclude = userList(settings[name]);
  if (exclude.length === 0) return null;
  const lower = exclude.map((user) => user.toLowerCase());
  return {
    setting: `${name}=${exclude.join(',')}`,
    variable: name,
    kind: 'exclude',
    audits: (user) => !lower.includes(user.toLowerCase()),
  };
}

/**
 * The checks' expectations when the filter leaves their account out: none of their statements is logged, so the
 * checks expect 'not logged' instead of blaming the plugin for the harness's own account. Nothing changes otherwise.
 */
export function userFilterExpectations(
  filter: UserFilter | null,
  traffic: AuditedTraffic,
): Partial<PluginExpectations> {
  if (filter === null || filter.audits(traffic.accounts.checks)) return {};
  return { logsSuccessfulQueries: false, failedQueryCodes: [], logsPasswordStatements: false };
}

/**
 * One line when the filter audits no account of the measured traffic (sysbench's application account): the
 * measurement would price a plugin that logs none of it. Null when the traffic is audited.
 */
export function unauditedTrafficLine(filter: UserFilter | null, traffic: AuditedTraffic): string | null {
  const { application } = traffic.accounts;
  if (filter === null || filter.audits(application)) return null;
  const edit = filter.kind === 'include' ? `add ${application} to` : `remove ${application} from`;
  return `${filter.setting} audits none of the measured traffic's accounts (application: ${application}), so the overhead would be that of a plugin logging nothing of it: ${edit} ${filter.variable}, or set traffic.accounts.application to an account it audits`;
}
