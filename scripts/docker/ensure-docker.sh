#!/usr/bin/env bash
# Make sure a Docker engine answers `docker info`, starting one if we can.
#
# Exit 0: an engine answers (it was already up, or this script started it).
# Exit 3: no engine and this machine is not one where we can start one
#         (not root, or not Debian); callers skip the container suites.
# Other:  we tried to start an engine and it failed; see the log named.
#
# Idempotent: never starts a second dockerd when one is already running.
# No systemd is assumed; dockerd runs in the background with its log in
# /var/log/auditbench-dockerd.log, and gets 60 s to answer.
set -euo pipefail

readonly wait_s=60
readonly log_file=/var/log/auditbench-dockerd.log
readonly pid_file=/var/run/docker.pid

engine_answers() { docker info >/dev/null 2>&1; }

# Echoes the pid of a running dockerd, if any.
running_dockerd_pid() {
  local pid
  if [[ -s $pid_file ]]; then
    pid=$(<"$pid_file")
    if [[ -d /proc/$pid ]] && [[ $(cat "/proc/$pid/comm" 2>/dev/null) == dockerd ]]; then
      echo "$pid"
      return 0
    fi
  fi
  pgrep -x dockerd | head -n 1
}

# Waits until `docker info` answers or $1 (a dockerd pid, optional) dies.
# Returns 0 when the engine answers, 1 on timeout, 2 when the process died.
wait_for_engine() {
  local pid=${1:-} deadline=$((SECONDS + wait_s))
  while ((SECONDS < deadline)); do
    engine_answers && return 0
    if [[ -n $pid ]] && ! kill -0 "$pid" 2>/dev/null; then return 2; fi
    sleep 1
  done
  engine_answers
}

is_debian() { [[ -r /etc/debian_version ]] && command -v apt-get >/dev/null; }

install_docker_engine() {
  command -v dockerd >/dev/null && return 0
  mkdir -p "$(dirname "$log_file")"
  echo "ensure-docker: installing docker.io with apt-get (output in $log_file)" >&2
  export DEBIAN_FRONTEND=noninteractive
  # A fresh machine may have empty package lists; update once and retry.
  if ! apt-get install -y -q docker.io >>"$log_file" 2>&1; then
    apt-get update -q >>"$log_file" 2>&1
    if ! apt-get install -y -q docker.io >>"$log_file" 2>&1; then
      echo "ensure-docker: 'apt-get install docker.io' failed; last lines of $log_file:" >&2
      tail -n 5 "$log_file" >&2
      return 1
    fi
  fi
}

# Starts dockerd with storage driver $1; echoes its pid.
start_dockerd() {
  local driver=$1
  mkdir -p "$(dirname "$log_file")"
  echo "=== $(date -Is) ensure-docker: starting dockerd --storage-driver=$driver" >>"$log_file"
  # setsid: dockerd must outlive this script and the caller's process group.
  setsid dockerd --storage-driver="$driver" </dev/null >>"$log_file" 2>&1 &
  echo $!
}

main() {
  if engine_answers; then
    echo "ensure-docker: Docker engine already running"
    return 0
  fi

  if [[ $EUID -ne 0 ]] || ! is_debian; then
    echo "ensure-docker: no Docker engine answers; start one (e.g. 'sudo dockerd &' or Docker Desktop), or rerun this script as root on Debian to install and start docker.io" >&2
    return 3
  fi

  local pid
  pid=$(running_dockerd_pid || true)
  if [[ -n $pid ]]; then
    if wait_for_engine "$pid"; then
      echo "ensure-docker: waited for the already running dockerd (pid $pid)"
      return 0
    fi
    echo "ensure-docker: dockerd (pid $pid) is running but 'docker info' has not answered in ${wait_s}s; see $log_file" >&2
    return 1
  fi

  install_docker_engine
  local driver status
  for driver in overlay2 vfs; do
    pid=$(start_dockerd "$driver")
    status=0
    wait_for_engine "$pid" || status=$?
    if ((status == 0)); then
      echo "ensure-docker: started dockerd (pid $pid, storage driver $driver, log $log_file)"
      return 0
    fi
    if ((status == 1)); then
      echo "ensure-docker: dockerd (pid $pid, storage driver $driver) did not answer within ${wait_s}s; see $log_file" >&2
      return 1
    fi
    echo "ensure-docker: dockerd exited with storage driver $driver; last log lines:" >&2
    tail -n 5 "$log_file" >&2
  done
  echo "ensure-docker: dockerd failed with both overlay2 and vfs; see $log_file" >&2
  return 1
}

main "$@"
