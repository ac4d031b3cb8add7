#!/usr/bin/env bash
# Installs what auditbench needs and is missing: npm dependencies, a MariaDB/MySQL server and sysbench.
# Safe to run again: it only acts on what is absent. Prints one line per thing it did.
set -euo pipefail
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
[ "${AUDITBENCH_SETUP_FOR:-}" = test ] && [ "$(id -u)" -eq 0 ] && command -v apt-get >/dev/null && ! [ -x /usr/bin/chromium ] && missing+=(chromium)
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
    { [ "${AUDITBENCH_SETUP_FOR:-}" = test ] && [ "$(id -u)" -eq 0 ] && command -v apt-get >/dev/null; }
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

# McAfee/Trellix AUDIT publishes no build for today's servers: build it from source for the local MariaDB
# (scripts/plugins/build-mcafee-audit.sh; cached, seconds after the first time). Wanted in CI, for the test and bench
# commands as root on Debian, and with AUDITBENCH_MCAFEE=1; AUDITBENCH_MCAFEE=0 opts out. Without it that suite skips.
mcafee_wanted() {
  [ "${AUDITBENCH_MCAFEE:-}" = 0 ] && return 1
  [ "${CI:-}" = true ] || [ "${AUDITBENCH_MCAFEE:-}" = 1 ] ||
    { [ -n "${AUDITBENCH_SETUP_FOR:-}" ] && [ "$(id -u)" -eq 0 ] && command -v apt-get >/dev/null; }
}
if mcafee_wanted; then
  build_deps=()
  for pair in autoreconf:autoconf automake:automake libtoolize:libtool g++:g++ make:make python3:python3 gdb:gdb \
    git:git dpkg-source:dpkg-dev; do
    command -v "${pair%%:*}" >/dev/null || build_deps+=("${pair#*:}")
  done
  [ -f /usr/include/mariadb/server/my_config.h ] || build_deps+=(libmariadbd-dev)
  if [ ${#build_deps[@]} -gt 0 ] && [ "$(id -u)" -eq 0 ] && command -v apt-get >/dev/null; then
    say "installing ${build_deps[*]} with apt-get (to build McAfee AUDIT)"
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${build_deps[@]}" >/dev/null
  fi
  scripts/plugins/build-mcafee-audit.sh >/dev/null || say "McAfee AUDIT was not built (reason above): its suite will be skipped"
fi
