/**
 * What a DBA's sysbench script (traffic.script) must have for auditbench to measure it: sysbench counts a transaction
 * per call of `event`, and `prepare` builds the script's schema in database `auditbench` before anything runs.
 * Returns the one line that refuses it, or null.
 */
export function ownScriptProblem(text: string, where: string, file: string): string | null {
  const defines = (name: string) =>
    new RegExp(`function\\s+${name}\\s*\\(|\\b${name}\\s*=\\s*function\\b`).test(text);
  const missing: string[] = [];
  if (!defines('event')) missing.push('function event() (one transaction; sysbench counts its calls)');
  const prepares =
    defines('prepare') ||
    defines('cmd_prepare') ||
    /sysbench\.cmdline\.commands[\s\S]*\bprepare\s*=/.test(text);
  if (!prepares) missing.push("a prepare command (it builds the script's schema in database auditbench)");
  if (/function\s+report_(interval|cumulative)\b|sysbench\.hooks\.report_/.test(text))
    missing.push(
      "sysbench's standard report (the script replaces report hooks; auditbench parses the standard form)",
    );
  if (missing.length === 0) return null;
  return `${where}: ${file} cannot be measured: it needs ${missing.join(' and ')}`;
}
