#!/usr/bin/env bash
# How much McAfee AUDIT writes per sysbench transaction, with sysbench's default (server-side prepared statements,
# --db-ps-mode=auto) and with --db-ps-mode=disable (plain text statements). One throwaway local server; run it
# under the measurement lock:
#   flock /tmp/auditbench-measure.lock scripts/plugins/mcafee-log-volume.sh [--uninstall] [--record-log FILE] [seconds]
# Needs the library you deploy: AUDITBENCH_PLUGIN_DIR=<folder holding libaudit_plugin.so and a *.cnf with
# loose-audit_offsets for this mariadbd>; the suites derive those offsets and print the line to put there.
# --uninstall then walks the seed's uninstall procedure and prints each answer.
# --record-log FILE also copies a short log of known statements there (fixtures/logs/mcafee-*).
set -euo pipefail
uninstall=0
record_log=
while (($# > 0)); do
  case $1 in
    --uninstall) uninstall=1 ;;
    --record-log) record_log=${2:?--record-log needs a file}; shift ;;
    *) break ;;
  esac
  shift
done
seconds=${1:-20}
plugins=${AUDITBENCH_PLUGIN_DIR:?set AUDITBENCH_PLUGIN_DIR to the folder holding libaudit_plugin.so}
mysqld=${AUDITBENCH_MYSQLD:-$(command -v mariadbd || echo /usr/sbin/mariadbd)}
[[ -f $plugins/libaudit_plugin.so ]] || { echo "no libaudit_plugin.so in $plugins: put the McAfee AUDIT library you deploy there" >&2; exit 2; }
cat "$plugins"/*.cnf 2>/dev/null | grep -q 'audit_offsets' ||
  { echo "no audit_offsets in a *.cnf in $plugins: add loose-audit_offsets=<26 numbers> for this mariadbd (the suites print them)" >&2; exit 2; }
dir=$(mktemp -d /tmp/auditbench-mcafee-volume.XXXXXX)
pid=
cleanup() {
  [[ -n $pid ]] && kill "$pid" 2>/dev/null && wait "$pid" 2>/dev/null
  rm -rf "$dir"
}
trap cleanup EXIT
trap "exit 1" INT TERM
{
  echo '[mysqld]'
  echo "datadir=$dir/data"
  echo "socket=$dir/sock"
  echo 'skip_networking'
  echo "log_error=$dir/error.log"
  echo "plugin_dir=$plugins"
  echo 'innodb_flush_log_at_trx_commit=0'
  [[ $(id -u) == 0 ]] && echo 'user=root'
  cat "$plugins"/*.cnf | sed -n '/^\[mysqld\]/,$p' | grep -v '^\[mysqld\]'
} >"$dir/my.cnf"
mariadb-install-db --defaults-file="$dir/my.cnf" --auth-root-authentication-method=normal --skip-test-db >/dev/null
"$mysqld" --defaults-file="$dir/my.cnf" &
pid=$!
sql() { mariadb --socket="$dir/sock" -uroot -N -e "$1"; }
for _ in $(seq 60); do sql 'SELECT 1' >/dev/null 2>&1 && break || sleep 1; done
sql "INSTALL PLUGIN AUDIT SONAME 'libaudit_plugin.so'; CREATE DATABASE sbtest"
log=$dir/data/mysql-audit.json
if [[ -n $record_log ]]; then
  # A small real log for the parser's fixture: a header, a success, both failures, a password, a prepared statement.
  sql 'SET GLOBAL audit_json_file = ON'
  sql "CREATE TABLE sbtest.t (id INT PRIMARY KEY, v VARCHAR(20)); INSERT INTO sbtest.t VALUES (1, 'one')"
  sql 'SELECT v FROM sbtest.t WHERE id = 1' >/dev/null
  sql 'SELEC 1' 2>/dev/null || true
  sql 'SELECT * FROM sbtest.missing' 2>/dev/null || true
  sql "CREATE USER 'fixture'@'localhost' IDENTIFIED BY 'Secret-Pw-1'"
  sql "PREPARE s FROM 'SELECT v FROM sbtest.t WHERE id = ?'; SET @i = 1; EXECUTE s USING @i" >/dev/null
  sql 'DROP TABLE sbtest.t; SET GLOBAL audit_json_file = OFF'
  cp "$log" "$record_log"
fi
sb=(sysbench oltp_read_write --db-driver=mysql --mysql-socket="$dir/sock" --mysql-user=root --tables=2
  --table-size=10000 --threads=2)
"${sb[@]}" prepare >/dev/null
echo "server $("$mysqld" --version | awk '{print $3}'), ${seconds} s per mode, 2 threads, oltp_read_write"
for mode in auto disable; do
  before=$(stat -c %s "$log" 2>/dev/null || echo 0)
  lines_before=$(wc -l <"$log" 2>/dev/null || echo 0)
  sql 'SET GLOBAL audit_json_file = ON'
  out=$("${sb[@]}" --time="$seconds" --db-ps-mode="$mode" run)
  sql 'SET GLOBAL audit_json_file = OFF'
  after=$(stat -c %s "$log")
  records=$(($(wc -l <"$log") - lines_before))
  txns=$(awk '/transactions:/ { print $2 }' <<<"$out")
  awk -v m="$mode" -v b=$((after - before)) -v t="$txns" -v r="$records" -v s="$seconds" 'BEGIN {
    printf "--db-ps-mode=%-8s %7d transactions  %8d records (%.1f per transaction)  %6.0f bytes/transaction  %6.1f MiB/min\n",
      m, t, r, r / t, b / t, b / s * 60 / 1048576 }'
done
echo "sample records (disable mode, last 3):"
tail -n 3 "$log" | cut -c1-300

# The uninstall procedure (--uninstall), answers as the server gives them.
((uninstall == 1)) || exit 0
restart() {
  mariadb-admin --socket="$dir/sock" -uroot shutdown 2>/dev/null || kill "$pid" 2>/dev/null || true
  wait "$pid" 2>/dev/null || true
  "$mysqld" --defaults-file="$dir/my.cnf" &
  pid=$!
  for _ in $(seq 60); do sql 'SELECT 1' >/dev/null 2>&1 && return 0; kill -0 "$pid" 2>/dev/null || break; sleep 1; done
  echo "  the server did not come back:"; tail -n 5 "$dir/error.log" | sed 's/^/    /'; return 1
}
try() { echo "  $1 -> $(sql "$1" 2>&1 | tr '\n' ' ')"; }
status() { sql "SELECT CONCAT('AUDIT ', IFNULL((SELECT PLUGIN_STATUS FROM information_schema.PLUGINS WHERE PLUGIN_NAME = 'AUDIT'), 'not installed'), ', audit_json_file=', IFNULL((SELECT VARIABLE_VALUE FROM information_schema.GLOBAL_VARIABLES WHERE VARIABLE_NAME = 'AUDIT_JSON_FILE'), '-'))"; }
echo "uninstall procedure:"
sql 'SET GLOBAL audit_json_file = ON'
restart && echo "  after a restart: $(status)"
try 'UNINSTALL PLUGIN AUDIT'
echo 'audit_uninstall_plugin=1' >>"$dir/my.cnf"
restart && echo "  restarted with audit_uninstall_plugin=1: $(status)"
sql 'SET GLOBAL audit_json_file = ON'
try 'UNINSTALL PLUGIN AUDIT'
lines=$(wc -l <"$log")
sql "SELECT 'after-first-uninstall'" >/dev/null
echo "  still logs after the first: $([[ $(wc -l <"$log") -gt $lines ]] && echo yes || echo no)"
try 'UNINSTALL PLUGIN AUDIT'
sleep 2
if kill -0 "$pid" 2>/dev/null && sql 'SELECT 1' >/dev/null 2>&1; then
  echo "  server alive after the second UNINSTALL: $(status)"
else
  echo "  the server died at the second UNINSTALL; error log tail:"
  grep -v '^\s*$' "$dir/error.log" | tail -n 25 | cut -c1-200 | sed 's/^/    /'
  restart && echo "  brought back (audit_uninstall_plugin=1 still in my.cnf): $(status)"
fi
sed -i '/^audit_uninstall_plugin=1$/d' "$dir/my.cnf"
restart && echo "  restarted without audit_uninstall_plugin: $(status)"
