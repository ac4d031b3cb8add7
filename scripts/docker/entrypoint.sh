#!/bin/bash
# Entrypoint of the locally built auditbench/mariadb and auditbench/mysql images,
# installed as /usr/local/bin/docker-entrypoint.sh by build-images.sh.
#
# It keeps the official mariadb/mysql images' contract, so harness code is the
# same for official and local images:
#   MARIADB_ROOT_PASSWORD | MYSQL_ROOT_PASSWORD             root password
#   MARIADB_ALLOW_EMPTY_ROOT_PASSWORD | MYSQL_ALLOW_EMPTY_PASSWORD   empty one,
#                                      socket only (no empty-password root@'%')
#   MARIADB_RANDOM_ROOT_PASSWORD | MYSQL_RANDOM_ROOT_PASSWORD      printed once
#   MARIADB_DATABASE, MARIADB_USER, MARIADB_PASSWORD (or MYSQL_*)   optional
# `docker run IMAGE --opt=x` starts the server with --opt=x; any other command
# (`docker run IMAGE bash`) runs as given. The server runs as user mysql, logs
# to stderr and reads /etc/mysql/conf.d/*.cnf.
set -euo pipefail

log() { echo "$(date -u '+%F %T') [entrypoint] $*" >&2; }
die() {
  log "ERROR: $*"
  exit 1
}

server_binary() {
  if command -v mariadbd >/dev/null; then echo mariadbd; else echo mysqld; fi
}

is_mariadb() { command -v mariadb-install-db >/dev/null; }

# Value of MARIADB_$1, else MYSQL_$2 (default: MYSQL_$1), else empty.
setting() {
  local mariadb_name="MARIADB_$1" mysql_name="MYSQL_${2:-$1}"
  echo "${!mariadb_name:-${!mysql_name:-}}"
}

# Reads a server option as the server itself would (config files and args).
server_option() {
  local name=$1
  shift
  # A throwaway binlog index: `--help` must not touch the data directory.
  "$@" --verbose --help --log-bin-index="$(mktemp -u)" 2>/dev/null | awk -v name="$name" '$1 == name { print $2; exit }'
}

# Escapes a value for use inside a single-quoted SQL string.
sql_string() {
  local value=${1//\\/\\\\}
  echo "${value//\'/\\\'}"
}

root_password() {
  local password
  password=$(setting ROOT_PASSWORD)
  if [[ -n $password ]]; then
    echo "$password"
  elif [[ -n $(setting ALLOW_EMPTY_ROOT_PASSWORD ALLOW_EMPTY_PASSWORD) ]]; then
    log "empty root password: root may log in over the socket only (no 'root'@'%')"
    echo ""
  elif [[ -n $(setting RANDOM_ROOT_PASSWORD) ]]; then
    password=$(head -c 24 /dev/urandom | base64 | tr -d '/+=')
    log "GENERATED ROOT PASSWORD: $password"
    echo "$password"
  else
    die "the data directory is uninitialised and no root password option is set; set one of MARIADB_ROOT_PASSWORD, MARIADB_ALLOW_EMPTY_ROOT_PASSWORD, MARIADB_RANDOM_ROOT_PASSWORD (or their MYSQL_ equivalents)"
  fi
}

# SQL run once on a new data directory: root may connect over TCP from the host,
# but only with a password: an account reachable from anywhere ('%') never has
# an empty one (with ALLOW_EMPTY_ROOT_PASSWORD root stays socket-only).
init_sql() {
  local password database user user_password
  password=$(sql_string "$1")
  database=$(setting DATABASE)
  user=$(setting USER)
  user_password=$(sql_string "$(setting PASSWORD)")
  echo "SET @@SESSION.SQL_LOG_BIN=0;"
  echo "ALTER USER 'root'@'localhost' IDENTIFIED BY '$password';"
  if [[ -n $password ]]; then
    echo "CREATE USER 'root'@'%' IDENTIFIED BY '$password';"
    echo "GRANT ALL ON *.* TO 'root'@'%' WITH GRANT OPTION;"
  fi
  if [[ -n $database ]]; then
    echo "CREATE DATABASE IF NOT EXISTS \`${database//\`/\`\`}\`;"
  fi
  if [[ -n $user && $user != root ]]; then
    [[ -n $user_password ]] || die "MARIADB_USER ($user) needs MARIADB_PASSWORD: an account reachable from anywhere gets no empty password"
    echo "CREATE USER '$(sql_string "$user")'@'%' IDENTIFIED BY '$user_password';"
    if [[ -n $database ]]; then
      echo "GRANT ALL ON \`${database//\`/\`\`}\`.* TO '$(sql_string "$user")'@'%';"
    fi
  fi
}

# MariaDB: install the system tables, then apply the SQL through a server
# that listens on the socket only, as the official image does.
init_mariadb() {
  local sql=$1 socket=$2
  shift 2
  mariadb-install-db --auth-root-authentication-method=normal --skip-test-db \
    --skip-name-resolve --default-time-zone=SYSTEM "${@:2}" >&2
  "$@" --skip-networking --socket="$socket" --loose-wsrep-on=OFF &
  local pid=$! tries=60
  until mariadb-admin --socket="$socket" -uroot ping >/dev/null 2>&1; do
    kill -0 "$pid" 2>/dev/null || die "the server exited while initialising; see the log above"
    ((--tries > 0)) || die "the server did not answer on $socket within 30 s while initialising"
    sleep 0.5
  done
  # mariadb-install-db also makes root@<hostname>, @127.0.0.1 and @::1; root@'%' covers them.
  mariadb --socket="$socket" -uroot <<SQL || die "the initialisation SQL failed"
SET @@SESSION.SQL_LOG_BIN=0;
DROP USER IF EXISTS 'root'@'127.0.0.1', 'root'@'::1';
EXECUTE IMMEDIATE CONCAT('DROP USER IF EXISTS root@''', @@hostname, '''');
$sql
SQL
  kill -TERM "$pid"
  wait "$pid" || true
}

# MySQL: --initialize-insecure runs the SQL through --init-file in one pass.
init_mysql() {
  local sql=$1 sql_file
  shift
  sql_file=$(mktemp /tmp/auditbench-init.XXXXXX.sql)
  echo "$sql" >"$sql_file"
  "$1" --initialize-insecure --init-file="$sql_file" "${@:2}" >&2 \
    || die "mysqld --initialize-insecure failed; see the log above"
  rm -f "$sql_file"
}

# The receiver of a syslog run (src/servers/container-syslog.ts): rsyslogd with the
# configuration the harness put at /etc/auditbench/rsyslog.conf, in an image that
# has it. The container's /dev/log is its own; the records go to the datadir. It
# runs as root beside the server and ends with the container. Its output file is
# opened at the first record, so a new datadir stays empty until the server runs.
start_receiver() {
  local config=/etc/auditbench/rsyslog.conf dir=/run/auditbench-syslog tries=100
  [[ -f $config ]] && command -v rsyslogd >/dev/null || return 0
  mkdir -p "$dir/work"
  rm -f /dev/log "$dir/rsyslogd.pid"
  rsyslogd -f "$config" -i "$dir/rsyslogd.pid" || die "rsyslogd did not start with $config"
  until [[ -S /dev/log ]]; do
    ((--tries > 0)) || die "rsyslogd did not create /dev/log within 10 s"
    sleep 0.1
  done
}

main() {
  # `docker run IMAGE --opt=x`: the arguments are server options.
  if [[ ${1:-} == -* ]]; then set -- "$(server_binary)" "$@"; fi
  case ${1:-} in
    mariadbd | mysqld | */mariadbd | */mysqld) ;;
    *) exec "$@" ;;
  esac

  local socket datadir
  socket=$(server_option socket "$@")
  socket=${socket:-/run/mysqld/mysqld.sock}

  if [[ $(id -u) == 0 ]]; then
    datadir=$(server_option datadir "$@")
    mkdir -p "${datadir:-/var/lib/mysql}" "$(dirname "$socket")"
    chown mysql:mysql "${datadir:-/var/lib/mysql}" "$(dirname "$socket")"
    start_receiver
    # Start again as mysql; the server never runs as root.
    exec setpriv --reuid=mysql --regid=mysql --init-groups -- "$0" "$@"
  fi

  datadir=$(server_option datadir "$@")
  datadir=${datadir:-/var/lib/mysql}
  if [[ ! -d $datadir/mysql ]]; then
    log "initialising the data directory $datadir"
    local password sql
    password=$(root_password)
    sql=$(init_sql "$password")
    if is_mariadb; then init_mariadb "$sql" "$socket" "$@"; else init_mysql "$sql" "$@"; fi
    log "initialisation done; starting the server"
  fi
  exec "$@"
}

main "$@"
