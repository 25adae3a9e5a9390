#!/usr/bin/env bash
# `pnpm run chaos:ci`: CI's bounded chaos run (issue 32), after the suite: scenarios 1 (the master's
# host silent), 2 (Sentinel failover with the old master on the minority side: its two checked
# settings, replica sync of both replicas for the Lock and the FencedLock) and 4 (client clocks
# jumping and drifting), once each, on ioredis: about 3 minutes. `pnpm chaos` runs every scenario on every adapter.
# The scenarios place hosts in network namespaces, which needs root on Linux: when one cannot be
# created the run stops with one line and fails, never skipping. Expects built packages. Like
# `pnpm chaos`, it merges its runs into reliability/results/chaos.{json,md} and regenerates the
# guide built from them.
set -euo pipefail
cd "$(dirname "$0")/.."

probe="deadbolt-chaos-probe-$$"
if ! ip netns add "$probe" 2>/dev/null; then
  echo "chaos: cannot create a network namespace (it needs root on Linux and iproute2): no chaos run" >&2
  exit 1
fi
ip netns delete "$probe"

DEADBOLT_CHAOS=1 DEADBOLT_BACKENDS=ioredis/standalone,ioredis/sentinel npx vitest run \
  --project @deadbolt/reliability --no-file-parallelism \
  -t 'master host goes silent|replica sync \(both|client wall clocks' \
  reliability/test/chaos-silent-master.test.ts \
  reliability/test/chaos-sentinel-split.test.ts \
  reliability/test/chaos-client-clocks.test.ts
pnpm run docs:what-holds
