#!/usr/bin/env bash
# Node.js new enough, and this clone's npm dependencies installed: what the CLI itself needs before it can start
# (it runs on tsx). Called by ./auditbench and by scripts/setup.sh; acts only on what is missing.
set -euo pipefail
cd "$(dirname "$0")/.."

die() { printf 'auditbench setup: %s\n' "$*" >&2; exit 1; }
node_ok() {
  node -e 'const [a,b]=process.versions.node.split(".").map(Number);process.exit(a>22||(a===22&&b>=12)||(a===20&&b>=19)||a===21||a===23?0:1)'
}
command -v node >/dev/null || die "Node.js is missing: install Node.js 20.19+ (apt-get install nodejs, or nodesource)"
node_ok || die "Node.js $(node --version) is too old: auditbench needs 20.19+ or 22.12+"

# Installed as another project's dependency there is no lock file here: that project's npm has installed ours.
if [ -f package-lock.json ] && { [ ! -d node_modules ] || [ package-lock.json -nt node_modules/.package-lock.json ]; }; then
  printf 'auditbench setup: %s\n' "installing npm dependencies (npm ci)"
  npm ci --no-audit --no-fund --loglevel=error
fi
