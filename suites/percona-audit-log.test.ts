import { perconaAuditLogJson } from '../fixtures/plugins/percona-audit-log.ts';
import { pluginSuite } from './shared/plugin-suite.ts';

pluginSuite(perconaAuditLogJson);
