import { expect, test } from 'vitest';
import { rotationFromVariables } from './rotation.ts';

test.for([
  [
    { server_audit_file_rotate_size: '1073741824', server_audit_file_rotations: '4' },
    { sizeBytes: 1_073_741_824, rotations: 4 },
  ],
  [{ server_audit_file_rotate_size: '1000000', server_audit_file_rotations: '0' }, null],
  [{ audit_log_rotate_on_size: '0', audit_log_rotations: '9' }, null],
  [
    { AUDIT_LOG_ROTATE_ON_SIZE: '4096', audit_log_rotations: '2' },
    { sizeBytes: 4096, rotations: 2 },
  ],
  [
    { sql_error_log_rotate: 'OFF', sql_error_log_rotations: '9', sql_error_log_size_limit: '1000000' },
    { sizeBytes: 1_000_000, rotations: 9 },
  ],
  [{ general_log: 'OFF', general_log_file: 'general.log' }, null],
] as [Record<string, string>, unknown][])('%j → %j', ([variables, expected]) => {
  expect(rotationFromVariables(variables)).toEqual(expected);
});
