import { generalLog } from '../fixtures/plugins/general-log.ts';
import { pluginSuite } from './shared/plugin-suite.ts';

pluginSuite(generalLog);
