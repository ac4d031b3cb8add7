import { sqlErrorLog } from '../fixtures/plugins/sql-error-log.ts';
import { pluginSuite } from './shared/plugin-suite.ts';

pluginSuite(sqlErrorLog);
