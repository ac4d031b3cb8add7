// Why a plugin logged nothing of the measured traffic, from what the server says and then from the configuration.
// Pure: src/bench/silence-facts.ts gathers the facts; unit tested in silence.test.ts.
import type { PluginProfile } from '../plugins/profile.ts';
import type { AddedRate } from '../plugins/silence-signs.ts';
import { userList } from '../plugins/user-filter.ts';
import type { silenceCauses } from '../results/schema.ts';
import { IDLE_PREFIX, type TrafficSeen } from './audit-events.ts';

export type SilenceCause = (typeof silenceCauses)[number];

/** What was gathered when the plugin logged nothing of the traffic. */
export interface SilenceFacts {
  /** The plugin's status rows read with its on arm applied, by name as the server spells them; empty when unread. */
  status: Readonly<Record<string, string>>;
  /** Its system variables with the on arm applied (lowercase names, plain values); the run's settings if unread. */
  variables: Readonly<Record<string, string>>;
  /** The server's error log, its last lines. */
  errorLog: readonly string[];
  /** Events the log held in the measured time, by user (none of them the traffic's). */
  loggedByUser: Readonly<Record<string, number>>;
  traffic: TrafficSeen;
}

export interface Silence {
  cause: SilenceCause;
  /** Why, and what to change, in one clause (the gate's line quotes it). */
  detail: string;
  /** One line: "measured an idle plugin: " and the detail. */
  advice: string;
}

const said = (cause: SilenceCause, detail: string): Silence => ({
  cause,
  detail,
  advice: `${IDLE_PREFIX}: ${detail}`,
});

/** The profile's parts the cause is read with: its names, its user filter, and where it reports its own failures. */
export type SilenceProfile = Pick<
  PluginProfile,
  'name' | 'loggingVariable' | 'loggingOnValues' | 'userFilter' | 'silence'
>;

/** A status or variable looked up whatever its case (SHOW STATUS says Server_audit_active). */
const lookup = (
  rows: Readonly<Record<string, string>>,
  name: string | null | undefined,
): string | undefined => {
  if (!name) return undefined;
  const wanted = name.toLowerCase();
  return Object.entries(rows).find(([k]) => k.toLowerCase() === wanted)?.[1];
};

/** Plain text of a value as configured: an SQL literal's quotes dropped ('CONNECT' → CONNECT). */
const plain = (value: string | undefined): string => (value ?? '').trim().replace(/^'(.*)'$/s, '$1');

/** The evidence that the plugin could not write its log, strongest first; empty when the server says nothing. */
function unwritableEvidence(profile: SilenceProfile, facts: SilenceFacts): string[] {
  const signs = profile.silence;
  const evidence: string[] = [];
  const lastError = plain(lookup(facts.status, signs?.lastErrorStatus));
  if (signs?.lastErrorStatus && lastError !== '') evidence.push(`${signs.lastErrorStatus}: ${lastError}`);
  const failed = Number(lookup(facts.status, signs?.writesFailedStatus) ?? 0);
  if (signs?.writesFailedStatus && failed > 0) evidence.push(`${signs.writesFailedStatus}: ${failed}`);
  const logging = lookup(facts.variables, profile.loggingVariable);
  const onValues = profile.loggingOnValues ?? ['ON'];
  if (profile.loggingVariable && logging !== undefined && !onValues.includes(logging.toUpperCase()))
    evidence.push(`${profile.loggingVariable} reads ${logging} after it was switched on`);
  else if (signs?.activeStatus && lookup(facts.status, signs.activeStatus)?.toUpperCase() === 'OFF')
    evidence.push(`${signs.activeStatus}: OFF`);
  // The error log only where the status says nothing of its own (McAfee AUDIT has no status to say it).
  const marks = signs?.errorLogMarks ?? [];
  const line = [...facts.errorLog].reverse().find((l) => marks.some((m) => l.includes(m)));
  if (line !== undefined && lastError === '') evidence.push(`error log: ${line.trim()}`);
  return evidence;
}

/** The file the plugin meant to write: its file variable (its current-log status keeps the last file it opened). */
function logPath(profile: SilenceProfile, facts: SilenceFacts): string | null {
  const signs = profile.silence;
  const configured = plain(lookup(facts.variables, signs?.fileVariable));
  if (configured !== '') return configured;
  const current = plain(lookup(facts.status, signs?.currentLogStatus));
  return current !== '' ? current : null;
}

function unwritable(profile: SilenceProfile, facts: SilenceFacts, evidence: string[]): Silence {
  const path = logPath(profile, facts);
  const fileVariable = profile.silence?.fileVariable;
  const where = path ? ` ${path}${path.startsWith('/') ? '' : ' (in the datadir)'}` : '';
  const folder = path ? `the folder of ${path}` : "its log's folder";
  const instead = fileVariable ? `, or set ${fileVariable} to a file it can write` : '';
  return said(
    'log-unwritable',
    `${profile.name} could not write its log${where} (${evidence.join('; ')}): make ${folder} exist and writable by the server's user${instead}`,
  );
}

const othersLogged = (facts: SilenceFacts): string[] =>
  Object.entries(facts.loggedByUser)
    .filter(([user, n]) => n > 0 && !facts.traffic.accounts.includes(user))
    .map(([user]) => user);

function filtered(profile: SilenceProfile, facts: SilenceFacts): Silence | null {
  const settings = Object.fromEntries(Object.entries(facts.variables).map(([k, v]) => [k, plain(v)]));
  const filter = profile.userFilter?.(settings) ?? null;
  if (filter === null || facts.traffic.accounts.some((a) => filter.audits(a))) return null;
  const accounts = facts.traffic.accounts;
  const [application = accounts[0] ?? 'the application account'] = accounts;
  const others = othersLogged(facts);
  const held = others.length > 0 ? `; it logged only ${others.join(', ')}` : '';
  const edit = filter.kind === 'include' ? `add ${application} to` : `remove ${application} from`;
  return said(
    'accounts-filtered',
    `${filter.setting} audits none of the traffic's accounts (${accounts.join(', ')})${held}: ${edit} ${filter.variable}, or set traffic.accounts.application to an account it audits`,
  );
}

function eventsAbsent(profile: SilenceProfile, facts: SilenceFacts): Silence | null {
  const filter = profile.silence?.eventFilter;
  if (!filter) return null;
  const value = plain(lookup(facts.variables, filter.variable));
  const classes = userList(value).map((c) => c.toUpperCase());
  // Empty logs every class, and a class sysbench sends (QUERY, TABLE) is logged without added load.
  if (classes.length === 0 || !classes.every((c) => c in filter.onlyFromAdded)) return null;
  const added = facts.traffic.added;
  const missing = classes.filter(
    (c) => !(filter.onlyFromAdded[c] ?? []).some((rate) => (added?.[rate] ?? 0) > 0),
  );
  if (missing.length < classes.length) return null;
  const rates: AddedRate[] = [
    ...new Set(missing.map((c) => filter.onlyFromAdded[c]?.[0]).filter((r) => r !== undefined)),
  ];
  const line = `traffic: { added: { ${rates.map((r) => `${r}: 10`).join(', ')} } }`;
  return said(
    'events-absent',
    `${filter.variable}=${value} logs only ${classes.join(', ')}, which sysbench's persistent connections never send: add \`${line}\` to the run in auditbench.config.ts (docs/traffic.md, "Added traffic")`,
  );
}

/**
 * Why the plugin logged none of the traffic, in the order of evidence: the server says it could not write its log
 * (its status, its logging variable, the error log); its user filter leaves the traffic's accounts out; the events it
 * is set to log are ones this traffic never sends. Else what to add, with the accounts it did log.
 */
export function explainSilence(profile: SilenceProfile, facts: SilenceFacts): Silence {
  const evidence = unwritableEvidence(profile, facts);
  if (evidence.length > 0) return unwritable(profile, facts, evidence);
  const found = filtered(profile, facts) ?? eventsAbsent(profile, facts);
  if (found) return found;
  const others = othersLogged(facts);
  const held = others.length > 0 ? ` (it logged only ${others.join(', ')})` : '';
  return said(
    'unknown',
    `${profile.name} logged none of the traffic's accounts (${facts.traffic.accounts.join(', ')})${held}: check its settings against the traffic, or add traffic.added (connections, failed logins, DDL, DCL) or a traffic.script with the statements it logs`,
  );
}

/** Whether a silent plugin fails: always when it could not write its log, else unless the run's `idle` is 'pass'. */
export const silenceFails = (
  cause: SilenceCause | null | undefined,
  idle: 'fail' | 'pass' | undefined,
): boolean => cause === 'log-unwritable' || idle !== 'pass';
