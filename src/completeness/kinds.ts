import type { PluginExpectations } from '../plugins/profile.ts';

/** The events the marker workload can tell apart, each carrying its own marker. */
export const eventKinds = ['read', 'write', 'failed', 'ddl', 'connect', 'failedLogin'] as const;
export type EventKind = (typeof eventKinds)[number];
/** Kinds issued as one SQL statement with the marker in a comment. */
export type StatementKind = Extract<EventKind, 'read' | 'write' | 'failed' | 'ddl'>;
export const statementKinds: StatementKind[] = ['read', 'write', 'failed', 'ddl'];

/**
 * What the configuration says about a kind: each marker exactly once (`logged`), none (`absent`), or not judged
 * (`unchecked`: the profile says nothing about it).
 */
export type Claim = 'logged' | 'absent' | 'unchecked';
export type Claims = Record<EventKind, Claim>;

/**
 * Claims that follow from the profile's expectations alone: successful statements when it logs successful queries,
 * failed ones when it logs their codes. Connects and failed logins are not in the expectations: unchecked until a
 * plugin's completeness setup says otherwise.
 */
export function claimsFromExpectations(expected: PluginExpectations): Claims {
  const statements: Claim = expected.logsSuccessfulQueries ? 'logged' : 'absent';
  return {
    read: statements,
    write: statements,
    ddl: statements,
    failed: expected.failedQueryCodes.length > 0 ? 'logged' : 'absent',
    connect: 'unchecked',
    failedLogin: 'unchecked',
  };
}
