import { serverAudit } from '../fixtures/plugins/server-audit.ts';
import { pluginSuite } from './shared/plugin-suite.ts';

pluginSuite(serverAudit);
