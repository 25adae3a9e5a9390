#!/usr/bin/env bash
# `pnpm run test:examples-bun`, the Bun smoke run: every example of examples/src run on Bun (the
# pinned one, installed into the runtimes cache by scripts/runtimes/bun.sh when missing) and checked
# as examples/test/examples.test.ts checks them on Node. The packages must be built; vitest itself
# runs on Node.
set -euo pipefail
cd "$(dirname "$0")/../.."

BUN_BIN="$(bash scripts/runtimes/bun.sh)"
echo "bun-examples: the examples on Bun $("$BUN_BIN/bun" --version)"
cd examples
PATH="$BUN_BIN:$PATH" DEADBOLT_EXAMPLES_RUNTIME=bun exec npx vitest run test/examples.test.ts
