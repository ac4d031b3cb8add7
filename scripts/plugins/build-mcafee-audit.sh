#!/usr/bin/env bash
# Builds McAfee/Trellix AUDIT (libaudit_plugin.so, mysql-audit v1.2.5) for the local MariaDB server and derives the
# THD offsets of that exact mariadbd binary. Output, cached by server version and source checksum:
#   <cache>/mcafee/<server-version>-<source-sha>/plugin/   (<cache>: $XDG_CACHE_HOME/auditbench, else
#   /var/cache/auditbench as root, else ~/.cache/auditbench)
#     libaudit_plugin.so   the plugin, udis86/yajl/pcre linked in statically
#     libaudit_plugin.cnf  [mysqld] loose-audit_offsets=<26 numbers> for this binary
# and links that folder as <cache>/plugins (what AUDITBENCH_PLUGIN_DIR can point at).
# The last line of stdout is the plugin folder. Exit 3 with one line on stderr when it cannot build here.
#
# Source: $AUDITBENCH_VENDOR_DIR/mysql-audit-1.2.5.tar.gz, else GitHub's archive of tag v1.2.5; either is checked
# against the commit and checksum below and extracted into the cache, never into this repository.
# Server headers: Debian's source package of mariadb (the installed version, else the nearest of its series), got
# with a private apt configuration whose deb-src entries are derived from the machine's own apt sources.
# Usage: build-mcafee-audit.sh [--print-dir]   (--print-dir: print the cached folder if built, else nothing)
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)

readonly tag=v1.2.5
readonly commit=6aa235aad57befffa85bc98700b07d41f412a8e6
readonly tarball=mysql-audit-1.2.5.tar.gz
readonly tarball_sha256=1c7d40417c31e670fc0c21bb502932c2dcedc0d00805a46572e490ff0c0b1eb8
# GitHub's archive may be compressed differently; the tar stream inside is what git archive wrote for the commit.
readonly tar_sha256=5321c3732d8cdf54b1be97b416336da060b8cacb61a5c4f641f95ff9514c40bd
readonly upstream=https://github.com/trellix-enterprise/mysql-audit/archive/refs/tags/$tag.tar.gz

say() { printf 'build-mcafee-audit: %s\n' "$*" >&2; }
cannot() {
  printf 'build-mcafee-audit: cannot build: %s\n' "$*" >&2
  exit 3
}

# As root, a system cache: the server runs as another user, who cannot read root's home.
if [[ -n ${XDG_CACHE_HOME:-} ]]; then cache_root=$XDG_CACHE_HOME/auditbench
elif [[ $(id -u) == 0 ]]; then cache_root=/var/cache/auditbench
else cache_root=$HOME/.cache/auditbench; fi
umask 022
mysqld=${AUDITBENCH_MYSQLD:-$(command -v mariadbd || echo /usr/sbin/mariadbd)}
[[ -x $mysqld ]] || cannot "no mariadbd found (set AUDITBENCH_MYSQLD or install mariadb-server)"
server_version=$("$mysqld" --version | awk '{ for (i = 1; i < NF; i++) if ($i == "Ver") { print $(i + 1); exit } }')
[[ $server_version == *MariaDB* ]] || cannot "$mysqld is '$server_version': this script builds for MariaDB only"
series=$(sed -E 's/^([0-9]+\.[0-9]+)\..*/\1/' <<<"$server_version")
build_root=$cache_root/mcafee/$server_version-${tarball_sha256:0:12}
plugin_dir=$build_root/plugin
binary_sha256=$(sha256sum "$mysqld" | cut -d' ' -f1)

cached() { [[ -f $plugin_dir/libaudit_plugin.so && -f $plugin_dir/libaudit_plugin.cnf ]] &&
  grep -q "mariadbd sha256 $binary_sha256" "$plugin_dir/libaudit_plugin.cnf"; }
if [[ ${1:-} == --print-dir ]]; then
  cached && echo "$plugin_dir"
  exit 0
fi
started=$SECONDS
if cached; then
  ln -sfn "$plugin_dir" "$cache_root/plugins"
  say "cached build for $server_version (source sha256 ${tarball_sha256:0:12}) in $plugin_dir"
  echo "$plugin_dir"
  exit 0
fi

missing=()
for tool in autoreconf automake libtoolize make g++ python3 gdb git apt-get dpkg-source; do
  command -v "$tool" >/dev/null || missing+=("$tool")
done
((${#missing[@]} == 0)) || cannot "missing ${missing[*]} (apt-get install autoconf automake libtool g++ make python3 gdb git dpkg-dev)"
[[ -f /usr/include/mariadb/server/my_config.h ]] ||
  cannot "no /usr/include/mariadb/server/my_config.h: install libmariadbd-dev (the installed server's generated headers)"
# MariaDB's plugin services (thd_alloc_service, …) are pointers a plugin carries itself, from this static library;
# without it INSTALL fails with "undefined symbol: thd_alloc_service".
services=$(ls /usr/lib/*/libmysqlservices.a /usr/lib/libmysqlservices.a 2>/dev/null | head -n 1 || true)
[[ -n $services ]] || cannot "no libmysqlservices.a: install libmariadbd-dev"
dev_version=$(dpkg-query -W -f '${Version}' libmariadbd-dev 2>/dev/null || true)
mkdir -p "$build_root"
exec 9>"$build_root/.lock"
flock 9

# --- the plugin's source, checked ---
source_tgz=$cache_root/mcafee/$tarball
if [[ -n ${AUDITBENCH_VENDOR_DIR:-} && -f $AUDITBENCH_VENDOR_DIR/$tarball ]]; then
  source_tgz=$AUDITBENCH_VENDOR_DIR/$tarball
  say "source: $source_tgz"
elif [[ ! -f $source_tgz ]]; then
  say "source: downloading $upstream"
  curl -fsSL --retry 2 -o "$source_tgz.part" "$upstream" ||
    cannot "no $tarball in AUDITBENCH_VENDOR_DIR (${AUDITBENCH_VENDOR_DIR:-unset}) and $upstream cannot be downloaded"
  mv "$source_tgz.part" "$source_tgz"
fi
got_commit=$(gzip -dc "$source_tgz" | git get-tar-commit-id 2>/dev/null || true)
[[ $got_commit == "$commit" ]] || cannot "$source_tgz is commit '${got_commit:-unknown}', expected $commit (tag $tag)"
if [[ $(sha256sum <"$source_tgz" | cut -d' ' -f1) != "$tarball_sha256" &&
  $(gzip -dc "$source_tgz" | sha256sum | cut -d' ' -f1) != "$tar_sha256" ]]; then
  cannot "$source_tgz does not match the sha256 of tag $tag ($tarball_sha256): delete it and run again"
fi
say "source verified: tag $tag, commit ${commit:0:12}"

# --- MariaDB's private headers from Debian's source package ---
headers=$("$here/mariadb-source-headers.sh" "$cache_root/mariadb-src" "$server_version" "$series") ||
  cannot "no Debian source package of MariaDB $series could be downloaded (see above)"
headers_version=$(cat "$headers/.debian-version")
say "server headers: Debian source $headers_version; generated headers from libmariadbd-dev $dev_version"

# --- build, with the fixes Debian 12's autotools and Python 3 need, applied in the build dir ---
build=$build_root/build
rm -rf "$build" "$plugin_dir"
mkdir -p "$build" "$plugin_dir"
tar xzf "$source_tgz" -C "$build" --strip-components=1
"$here/mcafee-build-fixes.sh" "$build"
say "building (autoreconf, configure, make -j$(nproc)); log: $build_root/build.log"
compiled=$SECONDS
(
  cd "$build"
  autoreconf -fi
  MYSQL_AUDIT_PLUGIN_VERSION=1.2.5 MYSQL_AUDIT_PLUGIN_REVISION=${commit:0:7} \
    ./configure --with-mysql="$headers" --with-mysql-plugindir="$plugin_dir" --with-mysql-libservices="$services"
  make -j"$(nproc)"
) >"$build_root/build.log" 2>&1 || {
  tail -n 15 "$build_root/build.log" >&2
  cannot "the build failed (above: the end of $build_root/build.log)"
}
cp "$build/src/.libs/libaudit_plugin.so" "$plugin_dir/"
say "compiled in $((SECONDS - compiled)) s"

# --- offsets of this mariadbd binary ---
offsets=$("$here/mcafee-offsets.sh" "$mysqld" "$headers" "$build_root/offsets") ||
  cannot "the THD offsets of $mysqld could not be derived (see above)"
{
  echo "# McAfee AUDIT $tag for $server_version, mariadbd sha256 $binary_sha256"
  echo "# offsets derived by scripts/plugins/mcafee-offsets.sh from the installed binary; headers: Debian $headers_version"
  echo '[mysqld]'
  echo "loose-audit_offsets=$offsets"
  echo '# The plugin declares itself the MySQL way, which MariaDB counts as maturity "unknown" (default floor: gamma).'
  echo 'plugin_maturity=unknown'
} >"$plugin_dir/libaudit_plugin.cnf"
ln -sfn "$plugin_dir" "$cache_root/plugins"
say "built in $((SECONDS - started)) s: $plugin_dir (offsets $offsets)"
echo "$plugin_dir"
