#!/usr/bin/env bash
# Makes a fresh machine ready: pnpm at the pinned version, redis-server, redis-cli and chromium,
# then the workspace's dependencies from the frozen lockfile.
set -euo pipefail
cd "$(dirname "$0")/.."

PNPM_VERSION=10.34.9

if ! command -v pnpm >/dev/null 2>&1 || [ "$(pnpm --version)" != "$PNPM_VERSION" ]; then
  echo "bootstrap: installing pnpm $PNPM_VERSION with npm"
  npm install --global "pnpm@$PNPM_VERSION" >/dev/null
fi

# Debian packages the tests need: redis-server and redis-cli for the test harness and the demo,
# chromium for the test that reads the built docs site.
MISSING=()
if ! command -v redis-server >/dev/null 2>&1 || ! command -v redis-cli >/dev/null 2>&1; then
  MISSING+=(redis-server redis-tools)
fi
if ! command -v chromium >/dev/null 2>&1; then
  MISSING+=(chromium)
fi
if [ ${#MISSING[@]} -gt 0 ]; then
  echo "bootstrap: installing ${MISSING[*]} with apt-get"
  SUDO=""
  [ "$(id -u)" -ne 0 ] && SUDO="sudo"
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq "${MISSING[@]}" >/dev/null
fi

pnpm install --frozen-lockfile
