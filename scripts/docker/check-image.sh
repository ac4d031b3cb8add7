# Sourced by build-images.sh: starts a freshly imported image once, as the
# harness will, before it may replace the image in use. Needs log, die,
# work_dir and check_container from build-images.sh.

# Seconds a freshly built image has to accept connections.
readonly check_wait_s=120

# The server's "ready for connections" line with the TCP port (MySQL's X Plugin
# says port 33060, MariaDB's initialising server port 0).
server_ready() { docker logs "$1" 2>&1 | grep -Eq "port: 3306([^0-9]|$)"; }

# check_image IMAGE SERVER VERSION: the server binary answers --version with
# VERSION, and a container of IMAGE initialises its datadir and accepts
# connections on 3306 within check_wait_s seconds.
check_image() {
  local image=$1 server=$2 version=$3 waited=0 answer
  answer=$(docker run --rm --entrypoint "$server" "$image" --version 2>&1) \
    || die "$image: '$server --version' failed in the new image: $answer"
  [[ $answer == *"Ver $version "* ]] || die "$image: '$server --version' says '$answer', expected Ver $version"
  log "$image: $answer"
  check_container=auditbench-image-check-$$
  docker run -d --name "$check_container" -e MYSQL_ALLOW_EMPTY_PASSWORD=1 \
    -e MARIADB_ALLOW_EMPTY_ROOT_PASSWORD=1 "$image" >>"$work_dir/build.log" 2>&1 \
    || die "$image: 'docker run' failed; see the build log"
  until server_ready "$check_container"; do
    if [[ $(docker inspect --format '{{.State.Running}}' "$check_container") != true ]]; then
      docker logs "$check_container" >>"$work_dir/build.log" 2>&1 || true
      die "$image: the server exited at its first start (exit code $(docker inspect --format '{{.State.ExitCode}}' "$check_container")); its log ends the build log"
    fi
    if ((waited++ >= check_wait_s)); then
      docker logs "$check_container" >>"$work_dir/build.log" 2>&1 || true
      die "$image: the server did not accept connections on port 3306 within $check_wait_s s; its log ends the build log"
    fi
    sleep 1
  done
  docker logs "$check_container" >>"$work_dir/build.log" 2>&1 || true
  log "$image: the server started in $waited s and accepts connections"
  docker rm -f -v "$check_container" >/dev/null
  check_container=""
}
