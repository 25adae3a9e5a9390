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
# pub/sub, and every Redisson interop file (the hash, zset and channel layouts Java shares). Those
# files mostly wait on leases and watchdogs, so the servers run at once, each printing its output
# when it ends.
set -euo pipefail
cd "$(dirname "$0")/../.."

FILES=(packages/conformance/test/ packages/*/test/*redisson-interop.test.ts)
AT_ONCE=false
if [ "${1:-}" = --ci ]; then
  shift
  AT_ONCE=true
  FILES=(
    packages/conformance/test/acl.test.ts
    packages/conformance/test/replica-sync.test.ts
    packages/conformance/test/pubsub-modes.test.ts
    packages/*/test/*redisson-interop.test.ts
  )
fi
IDS=("$@")
[ ${#IDS[@]} -gt 0 ] || IDS=(redis-8.0 valkey-8.1)

# Runs the files on one server; its output goes to $2 when given.
run_on() {
  local started=$SECONDS status=passed
  echo "servers: $1: ${FILES[*]}"
  DEADBOLT_SERVER="$1" npx vitest run "${FILES[@]}" || status=failed
  echo "servers: $1: $status in $((SECONDS - started)) s"
  [ "$status" = passed ]
}

FAILED=0
if [ "$AT_ONCE" = true ]; then
  LOGS="$(mktemp -d)"
  PIDS=()
  for id in "${IDS[@]}"; do
    run_on "$id" >"$LOGS/$id.log" 2>&1 &
    PIDS+=($!)
  done
  for index in "${!IDS[@]}"; do
    wait "${PIDS[$index]}" || FAILED=1
    cat "$LOGS/${IDS[$index]}.log"
  done
  for id in "${IDS[@]}"; do tail -n 1 "$LOGS/$id.log"; done
  rm -rf "$LOGS"
else
  SUMMARY=()
  for id in "${IDS[@]}"; do
    if run_on "$id"; then SUMMARY+=("servers: $id: passed"); else SUMMARY+=("servers: $id: failed"); FAILED=1; fi
  done
  printf '%s\n' "${SUMMARY[@]}"
fi
exit "$FAILED"
