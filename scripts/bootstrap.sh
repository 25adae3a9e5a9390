#!/usr/bin/env bash
# Makes a fresh machine ready for what you are about to run, and installs nothing more:
#
#   bash scripts/bootstrap.sh           for `pnpm demo`: pnpm at the pinned version, redis-server and
#                                       redis-cli (Debian's redis-server and redis-tools), and the
#                                       workspace's dependencies from the frozen lockfile
#   bash scripts/bootstrap.sh --tests   for `pnpm test`: the same, and Chromium (Debian's chromium,
#                                       Ubuntu's chromium-browser), which only the test of the built docs site (docs/test) uses,
#                                       and libfaketime (Debian's faketime), which the chaos tests'
#                                       faked client clocks use (reliability/src/chaos)
#   bash scripts/bootstrap.sh --servers  and builds the other servers the tests can run on
#                                       (DEADBOLT_SERVER=redis-8.0, valkey-8.1, redis-6.0) from
#                                       Debian's source packages: scripts/servers/build.sh
#   bash scripts/bootstrap.sh --runtimes  and the other runtimes CI tests on, from npm into
#                                       ~/.cache/deadbolt/runtimes: Node.js 22 and 24
#                                       (scripts/runtimes/node.sh) and Bun (scripts/runtimes/bun.sh)
#
# What is there already is left alone; system packages come from apt-get, through sudo when not
# root. Safe to run again.
set -euo pipefail

PNPM_VERSION=10.34.9
NODE_MAJOR=20
# The oldest Redis Deadbolt runs on; the client refuses older servers with UnsupportedServerError.
REDIS_MINIMUM=7.0

usage() {
  sed -n '2,17p' "$0" | sed 's/^# \{0,1\}//'
}

TESTS=false
SERVERS=false
RUNTIMES=false
for arg in "$@"; do
  case "$arg" in
    --tests) TESTS=true ;;
    --servers) SERVERS=true ;;
    --runtimes) RUNTIMES=true ;;
    -h | --help) usage; exit 0 ;;
    *) echo "bootstrap: unknown argument '$arg'" >&2; usage >&2; exit 2 ;;
  esac
done
# After reading the arguments: usage reads this file by the path it was started with.
cd "$(dirname "$0")/.."

# Node itself is not installed here: which one, and how (nvm, a distribution, an image), is
# the machine owner's choice. Say plainly what is wrong instead of failing later in pnpm.
if ! command -v node >/dev/null 2>&1 || ! command -v npm >/dev/null 2>&1; then
  echo "bootstrap: Node.js $NODE_MAJOR or later (with npm) is needed first: https://nodejs.org" >&2
  exit 1
fi
if [ "$(node -p 'process.versions.node.split(".")[0]')" -lt "$NODE_MAJOR" ]; then
  echo "bootstrap: Node.js $NODE_MAJOR or later is needed, found $(node --version)" >&2
  exit 1
fi

SUDO=""
if [ "$(id -u)" -ne 0 ]; then
  SUDO="sudo"
fi

if ! command -v pnpm >/dev/null 2>&1 || [ "$(pnpm --version)" != "$PNPM_VERSION" ]; then
  echo "bootstrap: installing pnpm $PNPM_VERSION with npm"
  # A system-wide Node (Debian's, say) keeps its global packages where only root may write.
  NPM_SUDO=""
  if [ ! -w "$(npm prefix --global)" ]; then
    NPM_SUDO="$SUDO"
  fi
  $NPM_SUDO npm install --global "pnpm@$PNPM_VERSION" >/dev/null
  hash -r
  if [ "$(pnpm --version 2>/dev/null)" != "$PNPM_VERSION" ]; then
    echo "bootstrap: pnpm $PNPM_VERSION was installed into $(npm prefix --global)/bin, which comes after another pnpm (or none) on PATH" >&2
    exit 1
  fi
fi

# Debian packages: redis-server and redis-cli for `pnpm demo` and the tests (the harness starts
# its own servers on free ports); with --tests, chromium for the docs site test, which looks for
# it where the test does (DEADBOLT_CHROMIUM, else /usr/bin/chromium), and faketime for the chaos
# tests' client clocks (they load its library where Debian puts it).
MISSING=()
if ! command -v redis-server >/dev/null 2>&1 || ! command -v redis-cli >/dev/null 2>&1; then
  MISSING+=(redis-server redis-tools)
fi
BROWSER=""
if [ "$TESTS" = true ] && [ ! -x "${DEADBOLT_CHROMIUM:-/usr/bin/chromium}" ]; then
  # Which package has it depends on the distribution, so ask apt, from fresh lists (without sudo
  # to get them, the check below says so for chromium).
  BROWSER=chromium
  if [ -z "$SUDO" ] || command -v sudo >/dev/null 2>&1; then
    $SUDO apt-get update -qq
    source scripts/aptCandidate.sh
    BROWSER="$(apt-cache policy chromium chromium-browser | first_installable)"
  fi
  if [ -z "$BROWSER" ]; then
    echo "bootstrap: neither chromium nor chromium-browser can be installed with apt-get here; install Chromium and set DEADBOLT_CHROMIUM to its binary, then run this again" >&2
    exit 1
  fi
  MISSING+=("$BROWSER")
fi
if [ "$TESTS" = true ] && [ ! -e /usr/lib/x86_64-linux-gnu/faketime/libfaketimeMT.so.1 ]; then
  MISSING+=(faketime)
fi
if [ ${#MISSING[@]} -gt 0 ]; then
  if [ -n "$SUDO" ] && ! command -v sudo >/dev/null 2>&1; then
    echo "bootstrap: ${MISSING[*]} missing, and neither root nor sudo to install them; install them and run this again" >&2
    exit 1
  fi
  echo "bootstrap: installing ${MISSING[*]} with apt-get"
  $SUDO apt-get update -qq
  $SUDO env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${MISSING[@]}" >/dev/null
fi
# Ubuntu's chromium-browser puts the browser where the docs site test does not look by default.
if [ -n "$BROWSER" ] && [ "$BROWSER" != chromium ]; then
  echo "bootstrap: installed $BROWSER; run the tests with DEADBOLT_CHROMIUM=$(command -v "$BROWSER" || echo "/usr/bin/$BROWSER")"
fi

pnpm install --frozen-lockfile

# A distribution's Redis can be older than Deadbolt needs (Ubuntu 22.04 and Debian 11 ship 6.0.16).
REDIS_VERSION="$(redis-server --version | sed -n 's/.* v=\([0-9.]*\).*/\1/p')"
if [ "$(printf '%s\n' "$REDIS_MINIMUM" "$REDIS_VERSION" | sort -V | head -n 1)" != "$REDIS_MINIMUM" ]; then
  echo "bootstrap: $(command -v redis-server) is Redis $REDIS_VERSION; Deadbolt needs Redis $REDIS_MINIMUM or later." >&2
  echo "bootstrap: run 'bash scripts/bootstrap.sh --servers' to build Redis 8.0 and Valkey 8.1, then run the" >&2
  echo "bootstrap: demo and tests with DEADBOLT_SERVER=redis-8.0 (or install Redis $REDIS_MINIMUM+ on PATH)." >&2
  [ "$SERVERS" = true ] || exit 1
fi

if [ "$SERVERS" = true ]; then
  bash scripts/servers/build.sh
fi

if [ "$RUNTIMES" = true ]; then
  for major in 22 24; do
    echo "bootstrap: Node.js $major in $(bash scripts/runtimes/node.sh "$major")"
  done
  echo "bootstrap: Bun in $(bash scripts/runtimes/bun.sh)"
fi
