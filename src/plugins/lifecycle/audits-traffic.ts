import { check, type LifecycleStep } from './context.ts';

/**
 * Decided from the run's settings before anything is installed or measured: a user filter that audits none of the
 * measured traffic's accounts makes the overhead that of a plugin logging nothing of it. The record names the setting
 * and the accounts; the gate then refuses to measure with the same line.
 */
export const auditsTraffic: LifecycleStep = {
  id: 'audits-traffic',
  title: "audits the measured traffic's accounts",
  async run(ctx) {
    const accounts = { application: ctx.application.user, checks: ctx.checks.user };
    return check(
      'audits-traffic',
      { application: true },
      { application: ctx.audited.application },
      {
        accounts,
        audited: ctx.audited,
        ...(ctx.refusal === null ? {} : { failure: ctx.refusal }),
      },
    );
  },
};
