import { totalBytes } from '../log-files.ts';
import { listLogFiles, readLogEvents, readLogText, waitForEvents } from '../log-reader.ts';
import { pluginStatus, readVariables } from '../server-state.ts';
import { runSteps } from '../steps.ts';
import { check, failingQuery, type LifecycleStep, toJson } from './context.ts';

export const install: LifecycleStep = {
  id: 'install',
  title: 'installs and is ACTIVE',
  async run(ctx) {
    const answers = await runSteps(ctx.server, ctx.profile.install, `Installing ${ctx.profile.name}`);
    ctx.defaults = await readVariables(ctx.server, ctx.profile.variablesLike);
    const status = await pluginStatus(ctx.server, ctx.profile.name);
    return check('install', 'ACTIVE', status, toJson({ answers, variables: ctx.defaults }));
  },
};

export const logsQuery: LifecycleStep = {
  id: 'logs-query',
  title: 'enabled, logs a successful query',
  async run(ctx) {
    await runSteps(ctx.server, ctx.profile.enable, `Enabling ${ctx.profile.name}`);
    await ctx.server.query(`SELECT '${ctx.marker}-ok' AS auditbench_marker`);
    const { events } = await waitForEvents(ctx.server, ctx.profile, (evs) =>
      evs.some((e) => e.queryText.includes(`${ctx.marker}-ok`)),
    );
    const hit = events.find((e) => e.queryText.includes(`${ctx.marker}-ok`));
    const observed = hit !== undefined && (hit.errorCode === 0 || hit.errorCode === null);
    return check('logs-query', ctx.profile.expected.logsSuccessfulQueries, observed, toJson({ event: hit }));
  },
};

export const failedQueries: LifecycleStep = {
  id: 'failed-queries',
  title: 'logs failed queries with their error code',
  async run(ctx) {
    const statements = [`SELEC '${ctx.marker}-syntax'`, `SELECT * FROM mysql.${ctx.marker}_missing_table`];
    const serverAnswered = [];
    for (const sql of statements) serverAnswered.push(await failingQuery(ctx.server, sql));
    const { events } = await waitForEvents(ctx.server, ctx.profile, (evs) =>
      evs.some((e) => e.queryText.includes(`${ctx.marker}_missing_table`)),
    );
    const loggedCodes = [`${ctx.marker}-syntax`, `${ctx.marker}_missing_table`]
      .map((needle) => events.find((e) => e.queryText.includes(needle))?.errorCode)
      .filter((code): code is number => typeof code === 'number' && code !== 0);
    return check('failed-queries', ctx.profile.expected.failedQueryCodes, loggedCodes, {
      serverAnswered,
    });
  },
};

export const masksPassword: LifecycleStep = {
  id: 'masks-password',
  title: 'masks the password in CREATE USER',
  async run(ctx) {
    const secret = `${ctx.marker}-Secret`;
    await ctx.server.query(`CREATE USER '${ctx.marker}'@'localhost' IDENTIFIED BY '${secret}'`);
    await ctx.server.query(`DROP USER '${ctx.marker}'@'localhost'`);
    await waitForEvents(ctx.server, ctx.profile, (evs) => evs.some((e) => /DROP USER/i.test(e.queryText)));
    const text = await readLogText(ctx.server, ctx.profile);
    const line = text.split('\n').find((l) => /CREATE USER/i.test(l) && l.includes(ctx.marker)) ?? null;
    const observed = text.includes(secret) ? 'plain text' : line ? 'masked' : 'not logged';
    const wanted = ctx.profile.expected.masksPasswords ? 'masked' : 'plain text';
    return check('masks-password', wanted, observed, { logged: line });
  },
};

export const parsesCleanly: LifecycleStep = {
  id: 'log-parses',
  title: 'every log line parses',
  async run(ctx) {
    const { events, rejected, files } = await readLogEvents(ctx.server, ctx.profile);
    return check(
      'log-parses',
      0,
      rejected.length,
      toJson({
        events: events.length,
        files: files.map((f) => f.name),
        firstRejected: rejected.slice(0, 3),
      }),
    );
  },
};

export const disabledIsSilent: LifecycleStep = {
  id: 'disabled-silent',
  title: 'disabled, logs nothing more',
  async run(ctx) {
    await runSteps(ctx.server, ctx.profile.disable, `Disabling ${ctx.profile.name}`);
    const before = totalBytes(await listLogFiles(ctx.server, ctx.profile));
    await ctx.server.query(`SELECT '${ctx.marker}-off' AS auditbench_marker`);
    await failingQuery(ctx.server, `SELECT * FROM mysql.${ctx.marker}_missing_while_off`);
    const after = totalBytes(await listLogFiles(ctx.server, ctx.profile));
    return check('disabled-silent', 0, after - before, { bytesBefore: before, bytesAfter: after });
  },
};
