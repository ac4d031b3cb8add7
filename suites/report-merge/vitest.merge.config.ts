import { withProjectReporters } from '../../suites/shared/reporters-config.ts';

// Two stand-in plugin suites under the project's own reporters: what suites/report-merge.suite.ts shards and merges.
export default withProjectReporters({ include: ['suites/report-merge/*.fake.ts'] });
