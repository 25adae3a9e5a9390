#!/usr/bin/env bash
# `pnpm test:servers [id...]`: the conformance suite (packages/conformance, every adapter and
# topology) and the Redisson interop tests of every package, on each server build in turn
# (DEADBOLT_SERVER=<id>; default redis-8.0 and valkey-8.1), each run timed. A build that is not
# there fails its run with how to build it (bash scripts/bootstrap.sh --servers). Expects built
# packages: the pnpm script builds them first.
#
# With --ci first, only the files whose outcome depends on the server's version, as CI runs them
# after the whole suite on Redis 7.0 (the full matrix does not fit its hour): the ACL rules per
# kind, replica sync (`WAITAOF` with AOF on from Redis 7.2 and Valkey), classic and sharded
# pub/sub, and every Redisson interop file (the hash, zset and channel layouts Java shares).
set -euo pipefail
cd "$(dirname "$0")/../.."

FILES=(packages/conformance/test/ packages/*/test/*redisson-interop.test.ts)
if [ "${1:-}" = --ci ]; then
  shift
  FILES=(
    packages/conformance/test/acl.test.ts
    packages/conformance/test/replica-sync.test.ts
    packages/conformance/test/pubsub-modes.test.ts
    packages/*/test/*redisson-interop.test.ts
  )
fi
IDS=("$@")
[ ${#IDS[@]} -gt 0 ] || IDS=(redis-8.0 valkey-8.1)

SUMMARY=()
FAILED=0
for id in "${IDS[@]}"; do
  echo "servers: $id: ${FILES[*]}"
  started=$SECONDS
  status=passed
  DEADBOLT_SERVER="$id" npx vitest run "${FILES[@]}" || { status=failed; FAILED=1; }
  SUMMARY+=("servers: $id: $status in $((SECONDS - started)) s")
done
printf '%s\n' "${SUMMARY[@]}"
exit "$FAILED"
