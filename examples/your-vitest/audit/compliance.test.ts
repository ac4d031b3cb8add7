import { describe, expect, test } from 'auditbench/test';

// What our audit configuration must show (the `pci` run of auditbench.config.ts), written as tests. The rules are
// PCI DSS v4.0.1's requirements 10.2.1.2 (actions by administrative accounts), 10.2.1.4 (invalid access attempts),
// 10.2.1.5 (changes to accounts), 10.2.1.6 (stopping or pausing the audit logs) and 8.3.2 (passwords unreadable where
// stored), PCI Security Standards Council, PCI DSS v4.0.1 (June 2024): https://www.pcisecuritystandards.org/document_library/
test.override('runId', 'pci');

const PASSWORD = 'S3cret-Pan-2026!';
// An administrator who may grant (10.2.1.5's "elevated privileges" are its GRANTs).
const ADMIN = ['ALL PRIVILEGES ON *.* WITH GRANT OPTION'];

describe('PCI DSS 10.2: what the audit log holds', () => {
  test('DDL by an administrator is logged', async ({ server, audit }) => {
    const admin = await server.account('admin', ADMIN);
    const mark = await audit.mark();
    await admin.query('CREATE DATABASE IF NOT EXISTS shop');
    await admin.query('CREATE TABLE shop.cards (pan_token CHAR(64) PRIMARY KEY)');
    const records = await audit.since(mark, { closedBy: admin });
    expect(records).toHaveLogged({ user: 'admin', statement: /^CREATE TABLE shop\.cards/ });
  });

  test('DCL by an administrator is logged', async ({ server, audit }) => {
    const admin = await server.account('admin', ADMIN);
    const mark = await audit.mark();
    await admin.query("CREATE USER 'cardholder_ro'@'%' IDENTIFIED BY 'another-Secret-1'");
    await admin.query("GRANT SELECT ON shop.* TO 'cardholder_ro'@'%'");
    await admin.query("DROP USER 'cardholder_ro'@'%'");
    const records = await audit.since(mark, { closedBy: admin });
    expect(records).toHaveLogged({ user: 'admin', statement: /^DROP USER 'cardholder_ro'/ });
    expect(records).toHaveLogged({ user: 'admin', statement: /^GRANT SELECT ON shop\.\*/ });
  });

  test('a failed login is logged', async ({ server, audit }) => {
    const admin = await server.account('admin', ADMIN);
    const mark = await audit.mark();
    await server.failedLogin('admin');
    const records = await audit.since(mark, { closedBy: admin });
    expect(records).toHaveLogged({ user: 'admin', operation: 'FAILED_CONNECT' });
  });

  test("the excluded monitoring account's statements are not logged", async ({ server, audit }) => {
    const admin = await server.account('admin', ADMIN);
    const monitor = await server.account('monitor', ['CREATE, DROP ON shop.*']);
    const mark = await audit.mark();
    await monitor.query('CREATE TABLE shop.monitor_probe (id INT)');
    await monitor.query('DROP TABLE shop.monitor_probe');
    // Closed by a marker of an audited account: a lagging log cannot make this pass.
    const records = await audit.since(mark, { closedBy: admin });
    expect(records).not.toHaveLogged({ user: 'monitor', statement: /monitor_probe/ });
    // server_audit_excl_users leaves out statements only: server_audit logs every account's logins and logouts.
    expect(records).toHaveLogged({ user: 'monitor', operation: 'CONNECT' });
  });

  test('stopping the audit log is logged (10.2.1.6)', async ({ server, audit }) => {
    const admin = await server.account('admin', ADMIN);
    const mark = await audit.mark();
    await admin.query('SET GLOBAL server_audit_logging = OFF');
    await admin.query('SET GLOBAL server_audit_logging = ON');
    const records = await audit.since(mark, { closedBy: admin });
    expect(records).toHaveLogged({ user: 'admin', statement: /server_audit_logging\s*=\s*OFF/i });
  });

  test('a CREATE USER password is in no record and no log byte (PCI DSS 8.3.2)', async ({
    server,
    audit,
  }) => {
    const admin = await server.account('admin', ADMIN);
    const mark = await audit.mark();
    await admin.query(`CREATE USER 'batch'@'%' IDENTIFIED BY '${PASSWORD}'`);
    // A log without the statement holds no password either: first the evidence that the CREATE USER reached it.
    const records = await audit.since(mark, { closedBy: admin });
    expect(records).toHaveLogged({ user: 'admin', statement: /^CREATE USER 'batch'/ });
    // Closed by admin's marker: the log has caught up with the CREATE USER before its bytes are read.
    expect(await audit.bytes({ closedBy: admin })).not.toHoldText(PASSWORD);
  });
});

describe('what it costs', () => {
  test("the overhead is within the run's limit", async ({ auditRun, bench }) => {
    const result = await bench.run();
    expect(result.measurement, 'the run measured nothing').not.toBeNull();
    expect(result.measurement).toCostAtMostPct(auditRun.run.maxOverheadPct);
  });
});
