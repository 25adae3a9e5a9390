#!/usr/bin/env bash
# Installs Bun from npm's bun package (pinned: the version the Bun smoke run was measured on) into
# the runtimes cache (scripts/runtimes/install.sh), unless it is there, and prints its bin
# directory. To run the examples on it:   bash scripts/runtimes/bun-examples.sh
set -euo pipefail

BUN_VERSION=1.4.5
source "$(dirname "$0")/install.sh"
install_runtime "bun-$BUN_VERSION" "bun@$BUN_VERSION" .bin/bun
