#!/usr/bin/env bash
# Prints a folder holding MariaDB's private server headers (include/, sql/, storage/perfschema/, wsrep-lib, tpool)
# for the offsets probe (src/plugins/offsets/derive-offsets.ts): Debian's source package of the installed version, else the nearest
# version of the same series the mirror still serves, overlaid with the installed build's generated headers
# (libmariadbd-dev) and a pfs_config.h. MariaDB's own cmake does not run. Cached per source version.
# Usage: mariadb-source-headers.sh <cache-dir> <server-version, e.g. 10.11.19-MariaDB-0+deb12u1> <series, e.g. 10.11>
set -euo pipefail
cache=$1 server_version=$2 series=$3
say() { printf 'auditbench source headers: %s\n' "$*" >&2; }
mkdir -p "$cache/apt/lists/partial" "$cache/apt/archives/partial" "$cache/apt/parts"

# deb-src twins of the machine's own deb entries, in a private apt configuration: the system's is left alone.
{
  for f in /etc/apt/sources.list.d/*.sources; do
    [[ -f $f ]] && awk 'BEGIN { RS = ""; ORS = "\n\n" } /(^|\n)Types:[^\n]*deb([ \n]|$)/ { sub(/Types:[^\n]*/, "Types: deb-src"); print }' "$f"
  done
} >"$cache/apt/parts/auditbench-src.sources"
{
  for f in /etc/apt/sources.list /etc/apt/sources.list.d/*.list; do
    [[ -f $f ]] && sed -nE 's/^[[:space:]]*deb[[:space:]]/deb-src /p' "$f"
  done
} >"$cache/apt/parts/auditbench-src.list"
apt_opts=(-o "Dir::State::Lists=$cache/apt/lists" -o "Dir::Cache=$cache/apt" -o "Dir::Cache::archives=$cache/apt/archives"
  -o Dir::Etc::SourceList=/dev/null -o "Dir::Etc::SourceParts=$cache/apt/parts" -o Debug::NoLocking=1
  -o APT::Sandbox::User="$(id -un)")
apt-get "${apt_opts[@]}" -qq update >&2 || say "apt-get update of the deb-src entries failed; trying what is cached"

# Candidates: the installed version first, then the same series by distance from it.
installed_upstream=$(sed -E 's/-MariaDB.*//' <<<"$server_version")
mapfile -t candidates < <(apt-cache "${apt_opts[@]}" showsrc mariadb 2>/dev/null |
  sed -nE 's/^Version: (.*)$/\1/p' | sort -u |
  awk -v want="$installed_upstream" -v series="$series" '
    { v = $0; sub(/^[0-9]+:/, "", v); sub(/-.*/, "", v)
      if (index(v, series ".") != 1) next
      split(v, a, "."); split(want, b, "."); d = a[3] - b[3]; if (d < 0) d = -d
      printf "%d %s\n", d, $0 }' | sort -n | cut -d' ' -f2)
((${#candidates[@]} > 0)) || { say "the deb-src entries list no mariadb $series source"; exit 1; }

for version in "${candidates[@]}"; do
  upstream_version=$(sed -E 's/^[0-9]+://; s/-[^-]*$//' <<<"$version")
  tree=$cache/$upstream_version
  if [[ -f $tree/.debian-version ]]; then
    echo "$tree"
    exit 0
  fi
  download=$cache/download-$upstream_version
  mkdir -p "$download"
  say "downloading Debian source mariadb=$version"
  if ! (cd "$download" && apt-get "${apt_opts[@]}" -qq source --download-only "mariadb=$version" >"$cache/apt-source.log" 2>&1); then
    say "mariadb=$version is listed but not served ($(grep -m1 -oE ' [45][0-9]{2} +[A-Za-z ]+[a-z]' "$cache/apt-source.log" || echo "see $cache/apt-source.log")); trying the next nearest"
    rm -rf "$download"
    continue
  fi
  rm -rf "$tree" && mkdir -p "$tree"
  prefix=mariadb-$upstream_version
  tar xzf "$download"/mariadb_"$upstream_version".orig.tar.gz -C "$tree" --strip-components=1 --wildcards \
    "$prefix/VERSION" "$prefix/include/*" "$prefix/sql/*.h" "$prefix/storage/perfschema/*.h" \
    "$prefix/wsrep-lib/include/*" "$prefix/wsrep-lib/wsrep-API/*" "$prefix/tpool/*.h"
  # The installed build's cmake output: config, version and error-code headers.
  for header in /usr/include/mariadb/server/*.h; do
    [[ -e $tree/include/$(basename "$header") ]] || cp "$header" "$tree/include/"
  done
  # cmake copies this one verbatim (COPYONLY); sql_class.h reaches it through probes_mysql.h.
  cp "$tree/include/probes_mysql_nodtrace.h.in" "$tree/include/probes_mysql_nodtrace.h"
  # pfs_config.h is written by cmake from checks; on Linux/glibc these three hold and nothing else applies.
  printf '%s\n' '#define HAVE_SYS_GETTID 1' '#define HAVE_GETTID 1' '#define HAVE_INTEGER_PTHREAD_SELF 1' \
    >"$tree/storage/perfschema/pfs_config.h"
  rm -rf "$download"
  echo "$version" >"$tree/.debian-version"
  echo "$tree"
  exit 0
done
say "no candidate of mariadb $series could be downloaded: ${candidates[*]}"
exit 1
