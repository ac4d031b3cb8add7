import { expect, test } from 'vitest';
import { isThreadPool, normalThreadHandling, noThreadsRefusal } from './thread-handling.ts';

test('a thread_handling value as the server reads it: case and quotes aside', () => {
  expect(normalThreadHandling('Pool-Of-Threads')).toBe('pool-of-threads');
  expect(normalThreadHandling("'pool-of-threads'")).toBe('pool-of-threads');
  expect(normalThreadHandling(null)).toBeNull();
  expect(isThreadPool(' pool-of-threads ')).toBe(true);
  expect(isThreadPool('one-thread-per-connection')).toBe(false);
  expect(isThreadPool(undefined)).toBe(false);
});

test('no-threads is refused in one line naming the run, the setting, the value and what to do; the others pass', () => {
  const runs: { id: string; startupOptions: Record<string, string> }[] = [
    { id: 'stock', startupOptions: {} },
    { id: 'pool', startupOptions: { 'loose-thread_handling': 'pool-of-threads' } },
    { id: 'one', startupOptions: { thread_handling: 'one-thread-per-connection' } },
  ];
  expect(noThreadsRefusal(runs)).toBeNull();
  const line = noThreadsRefusal([
    ...runs,
    { id: 'debug', startupOptions: { 'thread-handling': 'No-Threads' } },
  ]);
  expect(line).toBe(
    "run debug: thread_handling=No-Threads serves one connection at a time, and auditbench keeps a connection of its own beside sysbench's (the counted channel's markers, the wall clock's switches): set thread_handling to one-thread-per-connection or pool-of-threads in the run's option file or startupOptions",
  );
  expect(line).not.toContain('\n');
});
