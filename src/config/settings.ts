/**
 * A DBA's plugin settings, typed: auditbench writes the SQL literal and the my.cnf value itself, so nobody quotes by
 * hand and nothing but a value can reach the server.
 */
export type SettingValue = number | boolean | string | readonly string[];
export type Settings = Readonly<Record<string, SettingValue>>;

const NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;

/** my.cnf spells names with dashes or underscores; SET GLOBAL only with underscores. */
export const normaliseName = (name: string): string => name.trim().replaceAll('-', '_').toLowerCase();

/** Why a setting name or value cannot be passed on, or null when it can. */
export function settingProblem(name: string, value: SettingValue): string | null {
  if (!NAME.test(normaliseName(name))) {
    return `'${name}' is not a server variable name: use letters, digits and _ (or - as in my.cnf)`;
  }
  if (typeof value === 'number' && !Number.isFinite(value)) return `${name} must be a finite number`;
  const texts = typeof value === 'string' ? [value] : Array.isArray(value) ? value : [];
  for (const text of texts) {
    if (/[\n\r\0]/.test(text)) return `${name} must be one line, without control characters`;
  }
  if (Array.isArray(value) && value.some((item) => item.includes(','))) {
    return `${name} is a list: give its items separately, without commas inside them`;
  }
  return null;
}

const listText = (value: SettingValue): string =>
  typeof value === 'boolean'
    ? value
      ? 'ON'
      : 'OFF'
    : Array.isArray(value)
      ? value.map((item) => item.trim()).join(',')
      : String(value);

/** The value as SET GLOBAL takes it: numbers bare, booleans ON/OFF, strings and lists as a quoted string. */
export function sqlLiteral(value: SettingValue): string {
  if (typeof value === 'number') return String(value);
  if (typeof value === 'boolean') return value ? 'ON' : 'OFF';
  return `'${listText(value).replaceAll('\\', '\\\\').replaceAll("'", "''")}'`;
}

/** The value as a my.cnf line takes it: quoted when it has characters the option file reader treats specially. */
export function cnfValue(value: SettingValue): string {
  const text = listText(value);
  if (text === '' || /[\s#;"'\\]/.test(text))
    return `"${text.replaceAll('\\', '\\\\').replaceAll('"', '\\"')}"`;
  return text;
}

/** The value as plain text, for titles, results and expectation rules: lists comma-joined, booleans ON/OFF. */
export const displayValue = (value: SettingValue): string => listText(value);

/** SET GLOBAL literals by variable name, as profiles' measureSettings hold them. */
export function toSqlLiterals(settings: Settings): Record<string, string> {
  return Object.fromEntries(Object.entries(settings).map(([k, v]) => [normaliseName(k), sqlLiteral(v)]));
}

/**
 * Startup options for my.cnf. `loose-` lets the server start while the plugin that owns the option is not loaded yet
 * (before INSTALL PLUGIN, or after it was removed) instead of refusing an unknown variable.
 */
export function toCnfOptions(settings: Settings): Record<string, string> {
  return Object.fromEntries(
    Object.entries(settings).map(([k, v]) => [`loose-${normaliseName(k)}`, cnfValue(v)]),
  );
}

/** A value the server reported, as a SQL literal for SET GLOBAL. */
export function sqlLiteralOf(value: string | number | null): string {
  if (value === null) return 'NULL';
  if (typeof value === 'number') return String(value);
  return `'${value.replace(/\\/g, '\\\\').replace(/'/g, "''")}'`;
}

/**
 * A value read back from the server (`SELECT @@GLOBAL.x`) as the literal that sets it again. mysql2 returns unsigned
 * BIGINT variables as strings ('1024'), and a quoted number is refused for a numeric variable (error 1232,
 * ER_WRONG_TYPE_FOR_VAR), so a string of digits is written bare; every other string (an enum or set value, a path)
 * is quoted. No text variable of the audit plugins holds digits alone.
 */
export function serverValueLiteral(value: unknown): string {
  if (value === null || value === undefined) return 'NULL';
  if (typeof value === 'number' || typeof value === 'bigint') return String(value);
  const text = String(value);
  return /^-?\d+(\.\d+)?$/.test(text) ? text : sqlLiteralOf(text);
}
