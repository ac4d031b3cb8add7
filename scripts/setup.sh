#!/usr/bin/env bash
# Installs what auditbench needs and is missing: npm dependencies, a MariaDB/MySQL server and sysbench.
# Safe to run again: it only acts on what is absent. Prints one line per thing it did.
# Usage: scripts/setup.sh [bench|test|matrix|slow-fs]: what the command about to run needs (./auditbench passes it;
# npm run bench:slow-fs passes slow-fs).
set -euo pipefail
setup_for=${1:-}
cd "$(dirname "$0")/.."

say() { printf 'auditbench setup: %s\n' "$*"; }
die() { printf 'auditbench setup: %s\n' "$*" >&2; exit 1; }

# Node.js and the npm dependencies (also run by ./auditbench itself, before the CLI starts).
scripts/npm-deps.sh

have_server() {
  [ -n "${AUDITBENCH_MYSQLD:-}" ] && return 0
  command -v mariadbd >/dev/null || command -v mysqld >/dev/null || [ -x /usr/sbin/mariadbd ] || [ -x /usr/sbin/mysqld ]
}
missing=()
have_server || missing+=(mariadb-server)
command -v sysbench >/dev/null || missing+=(sysbench)
# Headless Chromium renders index.html in the report test; without it that one test skips.
[ "$setup_for" = test ] && [ "$(id -u)" -eq 0 ] && command -v apt-get >/dev/null && ! [ -x /usr/bin/chromium ] && missing+=(chromium)
if [ ${#missing[@]} -gt 0 ]; then
  if [ "$(id -u)" -eq 0 ] && command -v apt-get >/dev/null; then
    say "installing ${missing[*]} with apt-get"
    apt-get update -qq
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
  else
    die "missing ${missing[*]}: install them (sudo apt-get install ${missing[*]}) or set AUDITBENCH_MYSQLD, then run again"
  fi
fi

# Docker, for the container target and the compatibility matrix: in CI, when asked for (AUDITBENCH_TARGET=container
# or AUDITBENCH_DOCKER=1), and for the test command as root on Debian, where it can be installed. AUDITBENCH_DOCKER=0
# opts out. Without an engine the container suites skip and say how to get one; the rest still runs.
docker_wanted() {
  [ "${AUDITBENCH_DOCKER:-}" = 0 ] && return 1
  [ "${CI:-}" = true ] || [ "${AUDITBENCH_TARGET:-local}" = container ] || [ "${AUDITBENCH_DOCKER:-}" = 1 ] ||
    { [[ "$setup_for" =~ ^(test|matrix)$ ]] && [ "$(id -u)" -eq 0 ] && command -v apt-get >/dev/null; }
}
if docker_wanted; then
  status=0
  scripts/docker/ensure-docker.sh >/dev/null || status=$?
  if [ "$status" -eq 0 ]; then
    # Builds the images named in AUDITBENCH_IMAGES, else all; an image already built is left alone.
    # A failed build keeps any working image; the matrix shows each missing image as a failed column with the reason.
    scripts/docker/build-images.sh || say "building the server images failed (see above): the matrix will fail with each missing image's reason"
  elif [ "$status" -eq 3 ]; then
    say "no Docker engine here: container suites will be skipped, and the matrix fails for each requested image (AUDITBENCH_DOCKER=0 opts out)"
  else
    say "starting a Docker engine failed (see above): container suites will be skipped"
  fi
fi

# Tools for what is compiled, read or counted at run time, installed only when they will be used (root, apt):
# - the counted channel (src/counted) runs a local server under valgrind's callgrind, unless AUDITBENCH_COUNTED=off;
# - a McAfee/Trellix AUDIT library supplied in AUDITBENCH_PLUGIN_DIR: deriving its THD offsets for this mariadbd
#   (src/plugins/offsets/) reads the binary with gdb and compiles a probe against MariaDB's source headers;
# - the test command's own audit plugin (test/plugin/), compiled against MariaDB's public plugin headers.
tool_deps=()
if [ "${AUDITBENCH_COUNTED:-auto}" != off ] || [ "$setup_for" = test ]; then
  command -v valgrind >/dev/null || tool_deps+=(valgrind)
fi
if [ -n "${AUDITBENCH_PLUGIN_DIR:-}" ] && [ -f "$AUDITBENCH_PLUGIN_DIR/libaudit_plugin.so" ]; then
  for pair in gdb:gdb g++:g++ dpkg-source:dpkg-dev; do
    command -v "${pair%%:*}" >/dev/null || tool_deps+=("${pair#*:}")
  done
  [ -f /usr/include/mariadb/server/my_config.h ] || tool_deps+=(libmariadbd-dev)
fi
if [ "$setup_for" = test ]; then
  command -v gcc >/dev/null || tool_deps+=(gcc)
  [ -f /usr/include/mariadb/server/mysql/plugin_audit.h ] || tool_deps+=(libmariadbd-dev)
  # - python3: the syslog canary's receiver (suites/syslog-canary/canary-receiver.py binds a Unix datagram socket,
  #   which Node cannot).
  command -v python3 >/dev/null || tool_deps+=(python3-minimal)
fi
# - rsyslog: the receiver a syslog run starts for itself (src/servers/syslog-receiver.ts), for the test command and
#   when the configuration names syslog (a word match: it only decides this install). Without an init system the
#   package's own service stays stopped (invoke-rc.d blocks it), so the host gets no /dev/log from it.
syslog_config=${AUDITBENCH_CONFIG:-auditbench.config.ts}
[[ "$syslog_config" = /* ]] || syslog_config="${AUDITBENCH_USER_DIR:-$PWD}/$syslog_config"
if [ "$setup_for" = test ] || grep -qs syslog "$syslog_config"; then
  command -v rsyslogd >/dev/null || [ -x /usr/sbin/rsyslogd ] || tool_deps+=(rsyslog)
fi
# - the slow log filesystem study (npm run bench:slow-fs, docs/slow-fs.md): gcc and Debian's libfuse3 to build and
#   mount test/slow-fs/slow_fs.c.
if [ "$setup_for" = slow-fs ]; then
  command -v gcc >/dev/null || tool_deps+=(gcc)
  [ -f /usr/include/fuse3/fuse.h ] || tool_deps+=(libfuse3-dev)
  command -v fusermount3 >/dev/null || tool_deps+=(fuse3)
fi
mapfile -t tool_deps < <(printf '%s\n' "${tool_deps[@]}" | sort -u | sed '/^$/d')
if [ ${#tool_deps[@]} -gt 0 ]; then
  if [ "$(id -u)" -eq 0 ] && command -v apt-get >/dev/null; then
    say "installing ${tool_deps[*]} with apt-get (the counted channel, a supplied McAfee library's offsets, the test plugin, a syslog run's receiver and the canary, the slow log filesystem)"
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${tool_deps[@]}" >/dev/null ||
      say "installing ${tool_deps[*]} failed: the parts that need them will say so and skip"
  else
    say "missing ${tool_deps[*]}: the parts that need them will say so and skip (sudo apt-get install ${tool_deps[*]})"
  fi
fi
