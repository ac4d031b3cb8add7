import { nullAudit } from '../fixtures/plugins/null-audit.ts';
import { pluginSuite } from './shared/plugin-suite.ts';

pluginSuite(nullAudit);
