/**
 * The single operations whose cost per audited event is measured, one per kind of traffic a DBA can count:
 * a keyed read, a keyed write, a statement the server refuses, a session (connect + disconnect), a failed login.
 */
export const operationKinds = [
  'point-select',
  'update',
  'failing-statement',
  'connect-disconnect',
  'failed-login',
] as const;

export type OperationKind = (typeof operationKinds)[number];

/** What each operation does, for reports. */
export const operationTitles: Record<OperationKind, string> = {
  'point-select': 'SELECT by primary key',
  update: 'UPDATE by primary key (autocommit)',
  'failing-statement': 'SELECT from a missing table (error 1146)',
  'connect-disconnect': 'connect, then disconnect',
  'failed-login': 'login with an unknown user (error 1045)',
};
