#!/usr/bin/env bash
# `pnpm run test:runtime`: the part of the suite that says whether Deadbolt works on the Node on
# PATH, for CI to run on each maintained Node line besides the one the whole suite runs on. The
# packages must be built. It runs
#   - the published packages' own tests, less the lock kinds' conformance-*.test.ts (the shared
#     conformance matrix again, for each kind: packages/conformance is the suite's), on the three
#     adapters over a standalone server: what differs between Node lines is the runtime under the
#     drivers, not the topology;
#   - the examples (examples/test), each run as a user runs it, on this Node with tsx;
#   - the release flow: docs/test/release*.test.ts, the tarballs that `pnpm run release:pack` writes
#     and what `pnpm run release:check` does, installed and used from ESM and CommonJS.
set -euo pipefail
cd "$(dirname "$0")/../.."

PUBLISHED=()
for manifest in packages/*/package.json; do
  if [ "$(node -p "require('./$manifest').private === true")" = false ]; then
    PUBLISHED+=(--project "$(basename "$(dirname "$manifest")")")
  fi
done

echo "runtime-suite: on Node $(node --version)"
export DEADBOLT_BACKENDS=ioredis/standalone,node-redis/standalone,valkey-glide/standalone
npx vitest run "${PUBLISHED[@]}" --project examples --exclude '**/conformance-*.test.ts'
npx vitest run --project docs docs/test/release
