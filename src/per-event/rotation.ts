import type { RotationInForce } from '../results/per-event-record.ts';

// Audit plugins name their size rotation alike: server_audit_file_rotate_size / _rotations and
// sql_error_log_size_limit / _rotations (MariaDB), audit_log_rotate_on_size / audit_log_rotations (Percona). Read from the server, so the projection
// uses the values actually in force.
const SIZE = /(rotate(_on)?_size|_size_limit)$/;
const COUNT = /rotations$/;

/**
 * The size rotation in force, from the plugin's variables (SHOW GLOBAL VARIABLES rows), or null when the log grows
 * without bound: no such variables, a size of 0 (Percona: no rotation) or 0 rotations (server_audit: no rotation;
 * Percona: keep every file, which is unbounded too).
 */
export function rotationFromVariables(variables: Readonly<Record<string, string>>): RotationInForce | null {
  const names = Object.keys(variables).map((n) => n.toLowerCase());
  const sizeName = names.find((n) => SIZE.test(n));
  const countName = names.find((n) => COUNT.test(n));
  if (!sizeName || !countName) return null;
  const value = (name: string) =>
    Number(Object.entries(variables).find(([n]) => n.toLowerCase() === name)?.[1]);
  const sizeBytes = value(sizeName);
  const rotations = value(countName);
  if (!(Number.isFinite(sizeBytes) && sizeBytes > 0 && Number.isInteger(rotations) && rotations > 0))
    return null;
  return { sizeBytes, rotations };
}
