#!/usr/bin/env bash
# Builds the local server images with debootstrap + `docker import`, because
# no container registry is reachable here; only Debian's package mirror is.
#
# Usage: build-images.sh [TAG...]
#   TAGs default to $AUDITBENCH_IMAGES (space- or comma-separated), else all:
#   auditbench/mariadb:10.5 auditbench/mariadb:10.11 auditbench/mariadb:11.8
#   auditbench/mysql:9.7
# An image that already exists is left alone. The mirror is read from this
# machine's apt sources; AUDITBENCH_DEBIAN_MIRROR overrides it.
# Exit 3: no Docker engine can be had here (callers skip container suites).
set -euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
readonly here
readonly all_tags=(auditbench/mariadb:10.5 auditbench/mariadb:10.11 auditbench/mariadb:11.8 auditbench/mysql:9.7)
readonly keyring=/usr/share/keyrings/debian-archive-keyring.gpg

log() { echo "build-images: $*" >&2; }
die() {
  log "ERROR: $*"
  exit 1
}

# Prints "suite package flavour required-plugins" for a tag.
image_spec() {
  case $1 in
    auditbench/mariadb:10.5) echo "bullseye mariadb-server mariadb server_audit.so,sql_errlog.so" ;;
    auditbench/mariadb:10.11) echo "bookworm mariadb-server mariadb server_audit.so,sql_errlog.so" ;;
    auditbench/mariadb:11.8) echo "trixie mariadb-server mariadb server_audit.so,sql_errlog.so" ;;
    # mysql-server only: sysbench's client library conflicts with it.
    auditbench/mysql:9.7) echo "sid mysql-server mysql adt_null.so" ;;
    *) return 1 ;;
  esac
}

# The first Debian mirror in the machine's apt sources (one-line .list files
# and deb822 .sources files) that serves the machine's own release.
debian_mirror() {
  if [[ -n ${AUDITBENCH_DEBIAN_MIRROR:-} ]]; then
    echo "${AUDITBENCH_DEBIAN_MIRROR%/}"
    return 0
  fi
  local codename files=()
  codename=$(. /etc/os-release && echo "${VERSION_CODENAME:-}")
  [[ -f /etc/apt/sources.list ]] && files+=(/etc/apt/sources.list)
  files+=(/etc/apt/sources.list.d/*.list /etc/apt/sources.list.d/*.sources)
  local file uri
  for file in "${files[@]}"; do
    [[ -f $file ]] || continue
    if [[ $file == *.sources ]]; then
      uri=$(deb822_mirror "$codename" <"$file")
    else
      uri=$(one_line_mirror "$codename" <"$file")
    fi
    if [[ -n $uri ]]; then
      echo "${uri%/}"
      return 0
    fi
  done
  return 1
}

# Suites that mark a source as the main Debian archive (not security, updates
# or a third-party repository).
readonly archive_suites_re='^(stable|testing|unstable|sid|oldstable|oldoldstable)$'

one_line_mirror() {
  awk -v want="$1" -v re="$archive_suites_re" '
    $1 != "deb" { next }
    { i = 2; if ($i ~ /^\[/) { while ($i !~ /\]$/) i++; i++ } }
    $(i + 1) == want || $(i + 1) ~ re { print $i; exit }'
}

deb822_mirror() {
  awk -v want="$1" -v re="$archive_suites_re" '
    function check(  n, s, k) {
      if (f["types"] ~ /(^| )deb( |$)/ && tolower(f["enabled"]) != "no") {
        n = split(f["suites"], s, " ")
        for (k = 1; k <= n; k++)
          if (s[k] == want || s[k] ~ re) { split(f["uris"], u, " "); print u[1]; done = 1; exit }
      }
      delete f
    }
    /^#/ { next }
    /^[ \t]*$/ { check(); next }
    /^[ \t]/ { f[key] = f[key] " " $0 }
    /^[^ \t]/ { key = tolower(substr($0, 1, index($0, ":") - 1)); f[key] = substr($0, index($0, ":") + 1) }
    { gsub(/^[ \t]+|[ \t]+$/, "", f[key]) }
    END { if (!done) check() }'
}

# bookworm's debootstrap knows trixie and sid; a suite it has no script for is
# built with its `sid` script, passed as debootstrap's SCRIPT argument.
debootstrap_script() {
  local scripts=/usr/share/debootstrap/scripts
  if [[ -e $scripts/$1 ]]; then
    echo "$scripts/$1"
  else
    log "debootstrap has no '$1' script; using its 'sid' script"
    echo "$scripts/sid"
  fi
}

ensure_tools() {
  if [[ $EUID -ne 0 ]]; then
    log "building images needs root (debootstrap, chroot); rerun as root"
    exit 3
  fi
  local status=0
  "$here/ensure-docker.sh" >&2 || status=$?
  ((status == 0)) || exit "$status"
  if ! command -v debootstrap >/dev/null; then
    log "installing debootstrap"
    DEBIAN_FRONTEND=noninteractive apt-get install -y -q debootstrap >/dev/null \
      || { apt-get update -q >/dev/null && DEBIAN_FRONTEND=noninteractive apt-get install -y -q debootstrap >/dev/null; } \
      || die "'apt-get install debootstrap' failed"
  fi
}

work_dir=""
cleanup() {
  [[ -n $work_dir && -d $work_dir ]] || return 0
  if mountpoint -q "$work_dir/rootfs/proc" 2>/dev/null; then umount -l "$work_dir/rootfs/proc"; fi
  rm -rf --one-file-system "$work_dir"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

in_rootfs() { chroot "$work_dir/rootfs" /usr/bin/env -i PATH=/usr/sbin:/usr/bin:/sbin:/bin DEBIAN_FRONTEND=noninteractive LC_ALL=C "$@"; }

# Runs a build step with its output in the build log; on failure shows the
# log's tail and stops with $1 as the message.
step() {
  local what=$1
  shift
  "$@" >>"$work_dir/build.log" 2>&1 || {
    tail -n 20 "$work_dir/build.log" >&2
    die "$what"
  }
}

install_server() {
  local package=$1 rootfs=$work_dir/rootfs
  # Package scripts must not start a server inside the build chroot.
  printf '#!/bin/sh\nexit 101\n' >"$rootfs/usr/sbin/policy-rc.d"
  chmod +x "$rootfs/usr/sbin/policy-rc.d"
  mount -t proc proc "$rootfs/proc"
  # The mirror may be a frozen snapshot whose sid Release is past Valid-Until;
  # signatures are still checked.
  step "'apt-get update' failed in the chroot" \
    in_rootfs apt-get -o Acquire::Check-Valid-Until=false update -q
  step "'apt-get install $package' failed in the chroot" \
    in_rootfs apt-get install -y -q --no-install-recommends "$package"
  rm -f "$rootfs/usr/sbin/policy-rc.d"
}

# Debian's server configs bind to 127.0.0.1 and log to a file; the container
# must listen on all interfaces and log to stderr, like the official images.
configure_server() {
  local flavour=$1 rootfs=$work_dir/rootfs conf_dir
  conf_dir=$rootfs/etc/mysql/$flavour.conf.d
  [[ -d $conf_dir ]] || die "$conf_dir is missing; the package layout changed"
  sed -i -E 's/^([[:space:]]*)(bind[-_]address|log[-_]error)\b/\1# disabled for docker: \2/' "$conf_dir"/*.cnf
  printf '[mysqld]\nbind-address = 0.0.0.0\nskip-name-resolve\nhost-cache-size = 0\n' >"$conf_dir/05-docker.cnf"
  mkdir -p "$rootfs/etc/mysql/conf.d"
  grep -rqs '^!includedir /etc/mysql/conf.d' "$rootfs/etc/mysql/" \
    || die "no config file in the image includes /etc/mysql/conf.d/"
  install -m 0755 "$here/entrypoint.sh" "$rootfs/usr/local/bin/docker-entrypoint.sh"
  # The package initialised a data directory; the entrypoint makes its own.
  rm -rf "${rootfs:?}/var/lib/mysql" "$rootfs/run/mysqld"
  install -d -o "$(in_rootfs id -u mysql)" -g "$(in_rootfs id -g mysql)" "$rootfs/var/lib/mysql" "$rootfs/run/mysqld"
}

# Echoes the plugin dir; fails naming any required plugin that is missing.
check_plugins() {
  local server=$1 required=$2 plugin_dir name missing=()
  plugin_dir=$(in_rootfs "$server" --verbose --help 2>/dev/null | awk '$1 == "plugin-dir" { print $2; exit }')
  [[ -n $plugin_dir ]] || die "could not read plugin-dir from $server --verbose --help"
  for name in ${required//,/ }; do
    [[ -f $work_dir/rootfs/$plugin_dir/$name ]] || missing+=("$name")
  done
  ((${#missing[@]} == 0)) || die "missing in $plugin_dir: ${missing[*]}"
  echo "${plugin_dir%/}"
}

slim_rootfs() {
  local rootfs=$work_dir/rootfs
  in_rootfs apt-get clean
  rm -rf "$rootfs"/var/lib/apt/lists/* "$rootfs"/var/cache/apt/*.bin \
    "$rootfs"/usr/share/doc/* "$rootfs"/usr/share/man/* "$rootfs"/usr/share/info/* \
    "$rootfs"/usr/share/locale/* "$rootfs"/var/cache/debconf/*-old "$rootfs"/var/log/*.log \
    "$rootfs"/var/log/apt/* "$rootfs"/tmp/* "$rootfs"/etc/resolv.conf "$rootfs"/etc/hostname
}

build_image() {
  local tag=$1 suite package flavour plugins mirror=$2 started=$SECONDS
  read -r suite package flavour plugins <<<"$(image_spec "$tag")"
  work_dir=$(mktemp -d /var/tmp/auditbench-image.XXXXXX)
  local rootfs=$work_dir/rootfs
  log "$tag: debootstrap $suite from $mirror (log $work_dir/build.log while it runs)"
  # util-linux brings setpriv, which the entrypoint uses to drop root.
  step "debootstrap $suite failed" debootstrap --variant=minbase --include=util-linux \
    --components=main --keyring="$keyring" "$suite" "$rootfs" "$mirror" "$(debootstrap_script "$suite")"

  log "$tag: installing $package"
  install_server "$package"
  local server version plugin_dir
  server=$(in_rootfs sh -c 'command -v mariadbd || command -v mysqld')
  version=$(in_rootfs "$server" --version | awk '{ for (i = 1; i < NF; i++) if ($i == "Ver") { print $(i + 1); exit } }')
  [[ $version == "${tag##*:}."* ]] || die "$tag: $suite installs server $version, not ${tag##*:}.x; change the tag or the suite"
  plugin_dir=$(check_plugins "$server" "$plugins")
  umount "$rootfs/proc"
  configure_server "$flavour"
  in_rootfs sh -c 'command -v setpriv' >/dev/null || die "$tag: setpriv is missing; the entrypoint needs it"
  slim_rootfs

  log "$tag: importing into docker"
  local cmd=${server##*/}
  tar -C "$rootfs" --numeric-owner --exclude='./dev/*' --exclude='./proc/*' --exclude='./sys/*' -c . |
    docker import \
      --change 'ENTRYPOINT ["/usr/local/bin/docker-entrypoint.sh"]' \
      --change "CMD [\"$cmd\"]" \
      --change 'EXPOSE 3306' \
      --change 'VOLUME /var/lib/mysql' \
      --change 'ENV PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin LANG=C.UTF-8' \
      --change "LABEL org.auditbench=1 org.auditbench.suite=$suite org.auditbench.server-version=$version org.auditbench.plugin-dir=$plugin_dir" \
      - "$tag" >/dev/null
  cleanup
  work_dir=""
  local size
  size=$(docker image inspect --format '{{.Size}}' "$tag")
  log "$tag: built in $((SECONDS - started)) s, $((size / 1024 / 1024)) MiB: $version; plugins in $plugin_dir"
}

main() {
  local tags=("$@")
  if ((${#tags[@]} == 0)) && [[ -n ${AUDITBENCH_IMAGES:-} ]]; then
    read -r -a tags <<<"${AUDITBENCH_IMAGES//,/ }"
  fi
  ((${#tags[@]} > 0)) || tags=("${all_tags[@]}")
  local tag
  for tag in "${tags[@]}"; do
    image_spec "$tag" >/dev/null || die "unknown image '$tag'; known: ${all_tags[*]}"
  done

  ensure_tools
  local mirror todo=()
  for tag in "${tags[@]}"; do
    if docker image inspect "$tag" >/dev/null 2>&1; then
      log "$tag: present, not rebuilt"
    else
      todo+=("$tag")
    fi
  done
  ((${#todo[@]} > 0)) || return 0
  mirror=$(debian_mirror) || die "no Debian mirror found in /etc/apt/sources.list or /etc/apt/sources.list.d/; set AUDITBENCH_DEBIAN_MIRROR"
  for tag in "${todo[@]}"; do
    build_image "$tag" "$mirror"
  done
}

main "$@"
