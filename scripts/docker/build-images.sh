#!/usr/bin/env bash
# Builds the local server images with debootstrap + `docker import`, because
# no container registry is reachable here; only Debian's package mirror is.
#
# Usage: build-images.sh [--rebuild] [TAG[=SUITE]...]
#   TAGs default to $AUDITBENCH_IMAGES (space- or comma-separated), else all:
#   auditbench/mariadb:10.5 auditbench/mariadb:10.11 auditbench/mariadb:11.8
#   auditbench/mysql:9.7
# An image that already exists is left alone unless --rebuild is given. Each
# build is imported under a temporary tag, its server is started once, and only
# then is it tagged TAG: a failed rebuild leaves the working image in place.
# TAG=SUITE builds TAG from another Debian suite; with a suite, any
# auditbench/mariadb:X or auditbench/mysql:X can be named.
# A failed build is recorded in .auditbench/image-builds/<tag>.failed (reason
# and the build log's last lines, the whole log beside it); the compatibility
# matrix shows it as the image's column. The mirror is read from this
# machine's apt sources; AUDITBENCH_DEBIAN_MIRROR overrides it.
# Exit 1: some image could not be built (the others were built).
# Exit 3: no Docker engine can be had here.
set -euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
readonly here
readonly state_dir=${here%/scripts/docker}/.auditbench/image-builds
readonly all_tags=(auditbench/mariadb:10.5 auditbench/mariadb:10.11 auditbench/mariadb:11.8 auditbench/mysql:9.7)
readonly keyring=/usr/share/keyrings/debian-archive-keyring.gpg
# shellcheck source=debian-mirror.sh
. "$here/debian-mirror.sh"

log() { echo "build-images: $*" >&2; }

current_tag=""
work_dir=""
candidate=""
check_container=""

slug() { echo "${1//[\/:]/_}"; }

# Writes the failure record the matrix reads: header lines, then the log's tail.
record_failure() {
  local tag=$1 reason=$2 build_log=${3:-} file
  mkdir -p "$state_dir"
  file=$state_dir/$(slug "$tag")
  {
    echo "image: $tag"
    echo "failed: $(date -u +%FT%TZ)"
    echo "reason: $reason"
    if [[ -n $build_log && -s $build_log ]]; then
      cp "$build_log" "$file.log"
      echo "log: $file.log"
      echo "--- last lines of the build log ---"
      tail -n 20 "$build_log"
    fi
  } >"$file.failed"
}

die() {
  log "ERROR: $*"
  if [[ -n $current_tag ]]; then
    record_failure "$current_tag" "$*" "${work_dir:+$work_dir/build.log}"
    if docker image inspect "$current_tag" >/dev/null 2>&1; then
      log "$current_tag: the image built before is kept"
    fi
  fi
  exit 1
}

# TAG=SUITE arguments, as given.
suite_overrides=()

suite_override() {
  local entry
  for entry in "${suite_overrides[@]}"; do
    if [[ ${entry%%=*} == "$1" ]]; then
      echo "${entry#*=}"
      return 0
    fi
  done
}

# Prints "suite packages flavour required-plugins" for a tag.
image_spec() {
  local suite
  suite=$(suite_override "$1")
  # MySQL: the server binaries without mysql-server, whose postinst runs mysqld
  # inside the build chroot; the entrypoint initialises the datadir instead.
  local mysql="mysql-server-core,mysql-common mysql adt_null.so"
  # rsyslog: the receiver of a syslog run, which the entrypoint starts (src/servers/container-syslog.ts).
  local mariadb="mariadb-server,rsyslog mariadb server_audit.so,sql_errlog.so"
  case $1 in
    auditbench/mariadb:10.5) echo "${suite:-bullseye} $mariadb" ;;
    auditbench/mariadb:10.11) echo "${suite:-bookworm} $mariadb" ;;
    auditbench/mariadb:11.8) echo "${suite:-trixie} $mariadb" ;;
    auditbench/mysql:9.7) echo "${suite:-sid} $mysql" ;;
    auditbench/mariadb:*) [[ -n $suite ]] && echo "$suite $mariadb" ;;
    auditbench/mysql:*) [[ -n $suite ]] && echo "$suite $mysql" ;;
    *) return 1 ;;
  esac
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

cleanup() {
  if [[ -n $check_container ]]; then docker rm -f -v "$check_container" >/dev/null 2>&1 || true; fi
  if [[ -n $candidate ]]; then docker rmi "$candidate" >/dev/null 2>&1 || true; fi
  [[ -n $work_dir && -d $work_dir ]] || return 0
  if mountpoint -q "$work_dir/rootfs/proc" 2>/dev/null; then umount -l "$work_dir/rootfs/proc"; fi
  rm -rf --one-file-system "$work_dir"
}

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
  local packages=$1 rootfs=$work_dir/rootfs
  # Package scripts must not start a server inside the build chroot.
  printf '#!/bin/sh\nexit 101\n' >"$rootfs/usr/sbin/policy-rc.d"
  chmod +x "$rootfs/usr/sbin/policy-rc.d"
  mount -t proc proc "$rootfs/proc"
  # The mirror may be a frozen snapshot whose sid Release is past Valid-Until;
  # signatures are still checked.
  step "'apt-get update' failed in the chroot" \
    in_rootfs apt-get -o Acquire::Check-Valid-Until=false update -q
  step "'apt-get install ${packages//,/ }' failed in the chroot" \
    in_rootfs apt-get install -y -q --no-install-recommends ${packages//,/ }
  rm -f "$rootfs/usr/sbin/policy-rc.d"
}

# shellcheck source=rootfs.sh
. "$here/rootfs.sh"
# shellcheck source=check-image.sh
. "$here/check-image.sh"

build_image() {
  local tag=$1 mirror=$2 suite packages flavour plugins started=$SECONDS
  current_tag=$tag
  read -r suite packages flavour plugins <<<"$(image_spec "$tag")"
  work_dir=$(mktemp -d /var/tmp/auditbench-image.XXXXXX)
  local rootfs=$work_dir/rootfs
  log "$tag: debootstrap $suite from $mirror (log $work_dir/build.log while it runs)"
  # util-linux brings setpriv, which the entrypoint uses to drop root.
  step "debootstrap $suite failed (is '$suite' a Debian suite on $mirror?)" debootstrap --variant=minbase \
    --include=util-linux --components=main --keyring="$keyring" "$suite" "$rootfs" "$mirror" \
    "$(debootstrap_script "$suite")"

  log "$tag: installing ${packages//,/ }"
  install_server "$packages"
  [[ $flavour != mysql ]] || provide_mysql_layout
  local server version plugin_dir
  server=$(in_rootfs sh -c 'command -v mariadbd || command -v mysqld') || die "$tag: no mariadbd or mysqld in the image"
  version=$(in_rootfs "$server" --version | awk '{ for (i = 1; i < NF; i++) if ($i == "Ver") { print $(i + 1); exit } }')
  [[ $version == "${tag##*:}."* ]] || die "$tag: $suite installs server $version, not ${tag##*:}.x; change the tag or the suite"
  plugin_dir=$(check_plugins "$server" "$plugins")
  local versions receiver
  versions=$(package_versions)
  # The label the harness reads before a syslog run on this image (RECEIVER_LABEL): rsyslog's version, if installed.
  receiver=$(in_rootfs dpkg-query -W -f '${Version}' rsyslog 2>/dev/null || true)
  umount "$rootfs/proc"
  configure_server "$flavour"
  in_rootfs sh -c 'command -v setpriv' >/dev/null || die "$tag: setpriv is missing; the entrypoint needs it"
  slim_rootfs

  candidate="$tag-candidate.$$"
  log "$tag: importing into docker as $candidate"
  local cmd=${server##*/}
  tar -C "$rootfs" --numeric-owner --exclude='./dev/*' --exclude='./proc/*' --exclude='./sys/*' -c . |
    docker import \
      --change 'ENTRYPOINT ["/usr/local/bin/docker-entrypoint.sh"]' \
      --change "CMD [\"$cmd\"]" \
      --change 'EXPOSE 3306' \
      --change 'VOLUME /var/lib/mysql' \
      --change 'ENV PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin LANG=C.UTF-8' \
      --change "LABEL org.auditbench=1 org.auditbench.suite=$suite org.auditbench.server-version=$version org.auditbench.plugin-dir=$plugin_dir" \
      --change "LABEL org.auditbench.packages=\"$versions\" org.auditbench.mirror=$mirror org.auditbench.built-at=$(date -u +%FT%TZ)" \
      ${receiver:+--change "LABEL org.auditbench.syslog-receiver=$receiver"} \
      - "$candidate" >/dev/null
  check_image "$candidate" "$cmd" "$version"
  docker tag "$candidate" "$tag"
  local size
  size=$(docker image inspect --format '{{.Size}}' "$tag")
  log "$tag: built in $((SECONDS - started)) s, $((size / 1024 / 1024)) MiB: $version; plugins in $plugin_dir"
  log "$tag: $suite: $versions"
}

main() {
  local rebuild=0
  if [[ ${1:-} == --one ]]; then
    # One image in a process of its own, so that `set -e` and `die` end this build only.
    trap cleanup EXIT
    trap 'exit 130' INT TERM
    build_image "$2" "$3"
    return 0
  fi
  if [[ ${1:-} == --rebuild ]]; then
    rebuild=1
    shift
  fi
  local arg tags=()
  for arg in "$@"; do
    if [[ $arg == *=* ]]; then
      suite_overrides+=("$arg")
      tags+=("${arg%%=*}")
    else
      tags+=("$arg")
    fi
  done
  if ((${#tags[@]} == 0)) && [[ -n ${AUDITBENCH_IMAGES:-} ]]; then
    read -r -a tags <<<"${AUDITBENCH_IMAGES//,/ }"
  fi
  ((${#tags[@]} > 0)) || tags=("${all_tags[@]}")
  ensure_tools
  local tag mirror todo=() failed=()
  for tag in "${tags[@]}"; do
    if ! image_spec "$tag" >/dev/null; then
      log "ERROR: unknown image '$tag'; known: ${all_tags[*]} (or give its suite: $tag=SUITE)"
      record_failure "$tag" "unknown image '$tag': build-images.sh knows ${all_tags[*]}; build-images.sh '$tag=SUITE' names a Debian suite to build it from"
      failed+=("$tag")
    elif ((rebuild == 0)) && docker image inspect "$tag" >/dev/null 2>&1; then
      log "$tag: present, not rebuilt"
    else
      todo+=("$tag")
    fi
  done
  if ((${#todo[@]} > 0)); then
    mirror=$(debian_mirror) || {
      log "ERROR: no Debian mirror found in /etc/apt/sources.list or /etc/apt/sources.list.d/; set AUDITBENCH_DEBIAN_MIRROR"
      exit 1
    }
    for tag in "${todo[@]}"; do
      if "$here/build-images.sh" --one "$tag" "$mirror"; then
        rm -f "$state_dir/$(slug "$tag").failed"
      else
        failed+=("$tag")
      fi
    done
  fi
  if ((${#failed[@]} > 0)); then
    log "not built: ${failed[*]} (reasons above and in $state_dir/)"
    exit 1
  fi
}

main "$@"
