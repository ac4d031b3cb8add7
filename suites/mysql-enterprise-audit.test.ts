import { mysqlEnterpriseAudit } from '../fixtures/plugins/mysql-enterprise-audit.ts';
import { pluginSuite } from './shared/plugin-suite.ts';

pluginSuite(mysqlEnterpriseAudit);
