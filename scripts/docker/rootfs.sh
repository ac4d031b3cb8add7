# Sourced by build-images.sh: what is done inside the image's root filesystem
# between installing the packages and importing it. Needs die, step, in_rootfs,
# work_dir and here from build-images.sh.

# What mysql-server's maintainer scripts would set up, without running mysqld:
# the mysql user, the config tree mysql-server ships, and the directories
# mysqld refuses to start without (secure-file-priv's among them).
provide_mysql_layout() {
  local rootfs=$work_dir/rootfs
  in_rootfs sh -c 'getent group mysql >/dev/null || groupadd --system mysql'
  in_rootfs sh -c 'getent passwd mysql >/dev/null || useradd --system --gid mysql --no-create-home \
    --home-dir /nonexistent --shell /usr/sbin/nologin --comment "MySQL Server" mysql'
  mkdir -p "$rootfs/etc/mysql/mysql.conf.d" "$rootfs/etc/mysql/conf.d"
  printf '[mysqld]\npid-file = /run/mysqld/mysqld.pid\nsocket = /run/mysqld/mysqld.sock\ndatadir = /var/lib/mysql\n' \
    >"$rootfs/etc/mysql/mysql.conf.d/mysqld.cnf"
  printf '!includedir /etc/mysql/conf.d/\n!includedir /etc/mysql/mysql.conf.d/\n' >"$rootfs/etc/mysql/mysql.cnf"
  step "update-alternatives for /etc/mysql/my.cnf failed" \
    in_rootfs update-alternatives --install /etc/mysql/my.cnf my.cnf /etc/mysql/mysql.cnf 200
  local owner dir
  owner="$(in_rootfs id -u mysql):$(in_rootfs id -g mysql)"
  for dir in /var/lib/mysql-files /var/lib/mysql-keyring; do
    install -d -m 0700 -o "${owner%:*}" -g "${owner#*:}" "$rootfs$dir"
  done
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
  # A package may have initialised a data directory; the entrypoint makes its own.
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

# "name=version ..." of the server packages and the libraries it runs on, for the image's labels.
package_versions() {
  { in_rootfs dpkg-query -W -f '${db:Status-Abbrev} ${Package}=${Version}\n' \
    'mariadb-*' 'mysql-*' libc6 'libssl3*' 2>/dev/null || true; } |
    awk '$1 == "ii" { printf "%s%s", sep, $2; sep = " " }'
}

slim_rootfs() {
  local rootfs=$work_dir/rootfs
  in_rootfs apt-get clean
  rm -rf "$rootfs"/var/lib/apt/lists/* "$rootfs"/var/cache/apt/*.bin \
    "$rootfs"/usr/share/doc/* "$rootfs"/usr/share/man/* "$rootfs"/usr/share/info/* \
    "$rootfs"/usr/share/locale/* "$rootfs"/var/cache/debconf/*-old "$rootfs"/var/log/*.log \
    "$rootfs"/var/log/apt/* "$rootfs"/tmp/* "$rootfs"/etc/resolv.conf "$rootfs"/etc/hostname
}
