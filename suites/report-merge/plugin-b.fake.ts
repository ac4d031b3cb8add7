import { fakePluginSuite, shardMachine } from './fake-plugin.ts';

fakePluginSuite({
  title: 'Fake audit B',
  configHash: 'bbbbbbbbbbbb',
  machine: shardMachine('shard-b', 4),
  overheadPct: 3,
  overheadCi95: [1, 5],
});
