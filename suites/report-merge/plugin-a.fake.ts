import { fakePluginSuite, shardMachine } from './fake-plugin.ts';

fakePluginSuite({
  title: 'Fake audit A',
  configHash: 'aaaaaaaaaaaa',
  machine: shardMachine('shard-a', 2),
  overheadPct: 20,
  overheadCi95: [18, 22],
});
