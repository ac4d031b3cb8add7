import type { AuditEvent } from '../audit-event.ts';
import { totalBytes } from '../log-files.ts';
import { listLogFiles, readLogEvents, readLogText, waitForEvents } from '../log-reader.ts';
import { readVariables } from '../server-state.ts';
import { runSteps, setGlobals } from '../steps.ts';
import {
  BUILT_IN,
  check,
  cutOnly,
  failingQuery,
  type LifecycleStep,
  missingTable,
  notApplicable,
  presence,
  recordsInOrder,
  recordsSentBy,
  sentAs,
  toJson,
  unreadableReason,
} from './context.ts';
import { countDuring } from './counters.ts';

export const install: LifecycleStep = {
  id: 'install',
  title: 'installs and is ACTIVE (or is built in)',
  async run(ctx) {
    const answers = await runSteps(ctx.server, ctx.profile.install, `Installing ${ctx.profile.name}`);
    ctx.defaults = await readVariables(ctx.server, ctx.profile.variablesLike);
    const wanted = ctx.profile.soname === null ? BUILT_IN : 'ACTIVE';
    return check(
      'install',
      wanted,
      await presence(ctx.server, ctx.profile),
      // Installing needs an administrator; `answers` lists each statement sent.
      toJson({ account: ctx.server.connection.user, answers, variables: ctx.defaults }),
    );
  },
};

/**
 * The run's settings (SET GLOBAL) go in right after install, so every later check sees the plugin as it will be
 * measured; the server must report each variable afterwards. Defaults were read before, for the restart check.
 */
export const applySettings: LifecycleStep = {
  id: 'apply-settings',
  title: "takes the run's settings",
  async run(ctx) {
    const settings = ctx.profile.measureSettings;
    const answers = await runSteps(ctx.server, setGlobals(settings), `Applying ${ctx.profile.name} settings`);
    const names = Object.keys(settings).map((n) => n.toLowerCase());
    const now = await readVariables(ctx.server, ctx.profile.variablesLike);
    const seen = Object.fromEntries(Object.entries(now).map(([k, v]) => [k.toLowerCase(), v]));
    const values = Object.fromEntries(names.map((n) => [n, seen[n] ?? null]));
    // Variables outside the profile's LIKE pattern (e.g. log_output) are read one by one.
    for (const name of names.filter((n) => !(n in seen))) {
      const { rows } = await ctx.server.query(`SELECT @@GLOBAL.${name} AS value`);
      values[name] = rows[0]?.value === undefined || rows[0]?.value === null ? null : String(rows[0].value);
    }
    const missing = names.filter((n) => values[n] === null);
    return check(
      'apply-settings',
      [],
      missing,
      toJson({ account: ctx.server.connection.user, applied: settings, serverReports: values, answers }),
    );
  },
};

export const logsQuery: LifecycleStep = {
  id: 'logs-query',
  title: 'enabled, logs a successful query',
  async run(ctx) {
    await runSteps(ctx.server, ctx.profile.enable, `Enabling ${ctx.profile.name}`);
    const needle = `${ctx.marker}-ok`;
    const statement = `SELECT '${needle}' AS auditbench_marker`;
    const query = () => ctx.checks.query(statement);
    const sent = sentAs(ctx.checks, statement);
    const { log } = ctx.profile;
    if (log.file === null) {
      // Nothing is written: "logs" means the plugin is sent the query's events and counts them.
      const counted = await countDuring(ctx.server, log, query);
      return check(
        'logs-query',
        ctx.expected.logsSuccessfulQueries,
        (counted.counted ?? 0) > 0,
        toJson({ ...sent, ...counted }),
      );
    }
    const why = unreadableReason(ctx, statement, needle);
    const limit = cutOnly(ctx);
    if (why !== null && limit !== null) {
      // The marker is past the cut: the record is found by the connection that sent it, keeping the start.
      const found = await recordsSentBy(ctx, ctx.checks, async () => void (await query()), 1);
      if (found !== null) {
        const [hit] = recordsInOrder(found.records, [statement], limit);
        const observed = hit !== undefined && (hit.errorCode === 0 || hit.errorCode === null);
        return check(
          'logs-query',
          ctx.expected.logsSuccessfulQueries,
          observed,
          toJson({ ...sent, cutAt: limit, connectionId: found.connectionId, records: found.records }),
        );
      }
    } else {
      await query();
    }
    if (why !== null) return notApplicable('logs-query', why, sent);
    const { events } = await waitForEvents(ctx.server, ctx.profile, (evs) =>
      evs.some((e) => e.queryText.includes(needle)),
    );
    const hit = events.find((e) => e.queryText.includes(needle));
    const observed = hit !== undefined && (hit.errorCode === 0 || hit.errorCode === null);
    return check('logs-query', ctx.expected.logsSuccessfulQueries, observed, toJson({ ...sent, event: hit }));
  },
};

export const failedQueries: LifecycleStep = {
  id: 'failed-queries',
  title: 'logs failed queries with their error code',
  async run(ctx) {
    // Each marker right at the start, so a plugin that cuts statements short keeps it.
    const needles = [`${ctx.marker}-syn`, `${ctx.marker}-mt`] as const;
    const statements = [
      `SELEC '${needles[0]}'`,
      `SELECT '${needles[1]}' FROM ${missingTable(ctx, 'missing_table')}`,
    ];
    const serverAnswered: number[] = [];
    const fail = async () => {
      for (const sql of statements) serverAnswered.push(await failingQuery(ctx.checks, sql));
    };
    const sent = sentAs(ctx.checks, ...statements);
    const { log } = ctx.profile;
    if (log.file === null) {
      const counted = await countDuring(ctx.server, log, fail);
      return notApplicable('failed-queries', 'writes no record, so no error code', {
        ...sent,
        serverAnswered,
        counted: toJson(counted),
      });
    }
    const why = statements
      .map((sql, i) => unreadableReason(ctx, sql, needles[i]))
      .find((reason) => reason !== null);
    const limit = cutOnly(ctx);
    if (why && limit !== null) {
      // The markers are past the cut: the records are found by the connection that sent them, in order.
      const found = await recordsSentBy(ctx, ctx.checks, fail, statements.length);
      if (found !== null) {
        const loggedCodes = recordsInOrder(found.records, statements, limit)
          .map((record) => record?.errorCode)
          .filter((code): code is number => typeof code === 'number' && code !== 0);
        return check('failed-queries', ctx.expected.failedQueryCodes, loggedCodes, {
          ...sent,
          serverAnswered,
          cutAt: limit,
          connectionId: found.connectionId,
          records: toJson(found.records),
        });
      }
    } else {
      await fail();
    }
    if (why) return notApplicable('failed-queries', why, { ...sent, serverAnswered });
    const { events } = await waitForEvents(ctx.server, ctx.profile, (evs) =>
      evs.some((e) => e.queryText.includes(needles[1])),
    );
    const loggedCodes = needles
      .map((needle) => events.find((e) => e.queryText.includes(needle))?.errorCode)
      .filter((code): code is number => typeof code === 'number' && code !== 0);
    return check('failed-queries', ctx.expected.failedQueryCodes, loggedCodes, { ...sent, serverAnswered });
  },
};

export const masksPassword: LifecycleStep = {
  id: 'masks-password',
  title: 'masks the password in CREATE USER',
  async run(ctx) {
    if (ctx.profile.log.file === null) return notApplicable('masks-password', 'writes no statement text');
    // A digit, both cases and a symbol: simple_password_check (production often loads it) accepts it whatever the marker.
    const secret = `${ctx.marker}-Secret1`;
    const create = `CREATE USER '${ctx.marker}'@'localhost' IDENTIFIED BY '${secret}'`;
    const drop = `DROP USER '${ctx.marker}'@'localhost'`;
    // Whether the secret is masked shows only where the record reaches past it.
    const why = unreadableReason(ctx, create);
    if (why !== null) {
      return notApplicable('masks-password', why, { statement: create.replace(secret, '<secret>') });
    }
    await ctx.checks.query(create);
    // The same statement again fails (1396), so a plugin that logs only failures shows what it does with the secret.
    const duplicateAnswered = await failingQuery(ctx.checks, create);
    await ctx.checks.query(drop);
    // The last of them a plugin records: the DROP where successes are logged, else the failed CREATE.
    const last = (e: AuditEvent) =>
      e.queryText.includes(ctx.marker) &&
      (/DROP USER/i.test(e.queryText) || (/CREATE USER/i.test(e.queryText) && Boolean(e.errorCode)));
    // Where nothing of the checks' account is logged, the wait runs out and the log has no line: 'not logged'.
    await waitForEvents(ctx.server, ctx.profile, (evs) => evs.some(last));
    const text = await readLogText(ctx.server, ctx.profile);
    const line = text.split('\n').find((l) => /CREATE USER/i.test(l) && l.includes(ctx.marker)) ?? null;
    const observed = text.includes(secret) ? 'plain text' : line ? 'masked' : 'not logged';
    const wanted =
      ctx.expected.logsPasswordStatements === false
        ? 'not logged'
        : ctx.expected.masksPasswords
          ? 'masked'
          : 'plain text';
    const sent = sentAs(
      ctx.checks,
      create.replace(secret, '<secret>'),
      create.replace(secret, '<secret>'),
      drop,
    );
    return check('masks-password', wanted, observed, { ...sent, logged: line, duplicateAnswered });
  },
};

export const parsesCleanly: LifecycleStep = {
  id: 'log-parses',
  title: 'every log line parses',
  async run(ctx) {
    if (ctx.profile.log.file === null) return notApplicable('log-parses', 'writes no log');
    const unreadable = ctx.expected.logUnreadable;
    if (unreadable !== undefined) return notApplicable('log-parses', unreadable);
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
    const [select, failing] = [
      `SELECT '${ctx.marker}-off' AS auditbench_marker`,
      `SELECT * FROM ${missingTable(ctx, 'missing_while_off')}`,
    ];
    const statements = async () => {
      await ctx.checks.query(select);
      await failingQuery(ctx.checks, failing);
    };
    const sent = sentAs(ctx.checks, select, failing);
    const { log } = ctx.profile;
    if (log.file === null) {
      // An unloaded plugin has no counter left: it counts nothing.
      const counted = await countDuring(ctx.server, log, statements);
      return check(
        'disabled-silent',
        0,
        counted.counted ?? 0,
        toJson({ ...sent, ...counted, loaded: counted.counted !== null }),
      );
    }
    if (ctx.expected.logUnreadable !== undefined) {
      await statements();
      return notApplicable('disabled-silent', ctx.expected.logUnreadable, sent);
    }
    // A syslog run's receiver writes asynchronously: what the server sent before each reading is counted on its side.
    await ctx.server.drainSyslog?.();
    const before = totalBytes(await listLogFiles(ctx.server, ctx.profile));
    await statements();
    await ctx.server.drainSyslog?.();
    const after = totalBytes(await listLogFiles(ctx.server, ctx.profile));
    return check('disabled-silent', 0, after - before, { ...sent, bytesBefore: before, bytesAfter: after });
  },
};
