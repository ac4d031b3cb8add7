import { expect, test } from 'vitest';
import { bufferPoolFor, callgrindWrapper, checkCollected, toggleFunctions } from './callgrind-server.ts';
import { PINNED_GLIBC_TUNABLES } from './identity.ts';
import { threadHandlingOf } from './thread-handling.ts';

test('connection threads are counted from their top function; the thread pool from its own entry points', () => {
  expect(toggleFunctions(null)).toEqual(['do_handle_one_connection*']);
  expect(toggleFunctions('one-thread-per-connection')).toEqual(['do_handle_one_connection*']);
  // Not threadpool_add_connection and the others: static, so unnamed in a stripped mariadbd (nothing was counted).
  expect(toggleFunctions('pool-of-threads')).toEqual(['tp_callback*']);
});

test('an arm that counted nothing is refused, naming the toggle functions that never ran', () => {
  expect(() => checkCollected(436_157_897, 'pool-of-threads')).not.toThrow();
  expect(() => checkCollected(0, 'pool-of-threads')).toThrow(
    /counted no instruction .*--toggle-collect=tp_callback\* ran \(thread_handling pool-of-threads\)/,
  );
  expect(() => checkCollected(0, null)).toThrow(/do_handle_one_connection\* ran \(thread_handling default\)/);
});

test("valgrind's command line: markers, dumps in the server's folder, glibc pinned, code re-checked when patched", () => {
  const plain = callgrindWrapper({ dir: '/tmp/auditbench-x' });
  expect(plain.command).toBe('valgrind');
  expect(plain.args).toContain('--zero-before=Item_func_sleep::val_int*');
  expect(plain.args).toContain('--dump-before=Item_func_benchmark::val_int*');
  expect(plain.args).toContain('--callgrind-out-file=/tmp/auditbench-x/callgrind.out');
  expect(plain.args).not.toContain('--smc-check=all');
  expect(plain.env).toEqual({ GLIBC_TUNABLES: PINNED_GLIBC_TUNABLES });
  const patched = callgrindWrapper({ dir: '/d', selfModifyingCode: true, threadHandling: 'pool-of-threads' });
  expect(patched.args).toContain('--smc-check=all');
  expect(patched.args.filter((a) => a.startsWith('--toggle-collect='))).toEqual([
    '--toggle-collect=tp_callback*',
  ]);
});

test('the buffer pool holds the counted tables, in 128 MiB steps', () => {
  const mib = 1024 * 1024;
  expect(bufferPoolFor(4, 10_000)).toBe(128 * mib);
  expect(bufferPoolFor(8, 100_000)).toBe(384 * mib);
});

test("a run's thread_handling, however its my.cnf name is written", () => {
  expect(threadHandlingOf({ 'loose-thread_handling': 'pool-of-threads' })).toBe('pool-of-threads');
  expect(threadHandlingOf({ 'thread-handling': 'pool-of-threads' })).toBe('pool-of-threads');
  expect(threadHandlingOf({ 'loose-server_audit_events': 'CONNECT' })).toBeNull();
});
