import { withProjectReporters } from '../../suites/shared/reporters-config.ts';

// One short real session under the project's own reporters: what suites/secrets.suite.ts greps for the password.
export default withProjectReporters({
  include: ['suites/secrets/*.fake.ts'],
  testTimeout: 120_000,
  hookTimeout: 120_000,
});
