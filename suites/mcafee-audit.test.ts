import { mcafeeAudit } from '../fixtures/plugins/mcafee-audit.ts';
import { pluginSuite } from './shared/plugin-suite.ts';

pluginSuite(mcafeeAudit);
