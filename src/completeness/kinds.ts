import type { Claim, Claims, EventKind } from '../plugins/completeness-claims.ts';
import type { PluginExpectations } from '../plugins/profile.ts';

// The kinds and claims are part of a profile (profile.completeness), so their types live beside it in src/plugins.
export { type Claim, type Claims, type EventKind, eventKinds } from '../plugins/completeness-claims.ts';

/** Kinds issued as one SQL statement with the marker in a comment. */
export type StatementKind = Extract<EventKind, 'read' | 'write' | 'failed' | 'ddl'>;
export const statementKinds: StatementKind[] = ['read', 'write', 'failed', 'ddl'];

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
