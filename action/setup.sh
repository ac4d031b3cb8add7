#!/usr/bin/env bash
# The Action's first step, in the DBA's repository (working-directory): what auditbench measures with, then the
# repository's own packages. apt runs only for what is missing, so a runner image (or a machine) that has MariaDB,
# sysbench and valgrind already skips it; the packaged server is stopped, since auditbench starts its own servers in
# temp dirs and a second mariadbd only costs CPU. valgrind gives the counted channel (docs/measurement.md).
set -euo pipefail

missing=()
command -v mariadbd >/dev/null || missing+=(mariadb-server)
command -v sysbench >/dev/null || missing+=(sysbench)
command -v valgrind >/dev/null || missing+=(valgrind)
if [ "${#missing[@]}" -gt 0 ]; then
  echo "auditbench action: installing ${missing[*]}"
  sudo apt-get update -qq
  sudo DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${missing[@]}"
  sudo systemctl disable --now mariadb || true
else
  echo "auditbench action: mariadbd, sysbench and valgrind are installed"
fi

npm ci --no-audit --no-fund
