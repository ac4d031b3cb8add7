import { expect, test } from 'vitest';
import { initSql, newPassword } from './server-account.ts';

test('passwords are long, URL-safe, pass a password check plugin at its defaults and differ every time', () => {
  const passwords = new Set(Array.from({ length: 50 }, newPassword));
  expect(passwords.size).toBe(50);
  for (const pw of passwords) {
    expect(pw).toMatch(/^[A-Za-z0-9_-]{28}$/);
    // simple_password_check's defaults: 8 characters, one of each of these.
    for (const kind of [/[A-Z]/, /[a-z]/, /[0-9]/, /[^A-Za-z0-9]/]) expect(pw).toMatch(kind);
  }
});

test.for([
  ['mariadb', true],
  ['mysql', false],
] as const)('the %s init file sets the password on both root accounts and quotes it', ([flavor, drops]) => {
  const sql = initSql(flavor, "a'b\\c");
  expect(sql).toContain("ALTER USER 'root'@'localhost' IDENTIFIED BY 'a''b\\\\c', 'root'@'127.0.0.1'");
  expect(sql).toContain("CREATE USER IF NOT EXISTS 'root'@'127.0.0.1' IDENTIFIED BY 'a''b\\\\c';");
  expect(sql.includes('EXECUTE IMMEDIATE')).toBe(drops);
  expect(sql).not.toMatch(/'%'/);
});
