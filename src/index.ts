// The package's public entry: what a DBA's auditbench.config.ts imports from 'auditbench'. Compiled to dist/ with
// .d.ts by `npm pack` (tsconfig.build.json); the harness itself runs from the TypeScript sources.

export type { MeasuredTrafficInput } from './config/measured-traffic.ts';
export type { Settings, SettingValue } from './config/settings.ts';
export type {
  LogFileOutput,
  PluginExpectations,
  PluginOutput,
  PluginProfile,
  RotationSettings,
  StatusCounterOutput,
} from './plugins/profile.ts';
export { type Step, setGlobals, sql } from './plugins/steps.ts';
// The built-in profiles, to extend one: `{ ...profiles.server_audit, title: 'ours', maxOverheadPct: 10 }`.
export { type ProfileName, profileNames, profiles } from './profiles/index.ts';
export {
  type AuditbenchConfig,
  defineConfig,
  fromCnf,
  type OptionFileReference,
  type RunConfig,
  type TrafficInput,
} from './runs/define-config.ts';
