/**
 * How much work each scenario does: `full` fits `pnpm bench` (build included) in 10 minutes on a
 * 2-core machine; `smoke` runs every scenario and contender in seconds, to keep the harness
 * working, and its figures mean nothing.
 */
export const SIZES = {
  full: {
    ownCostCycles: 20_000,
    uncontended: { cycles: 3_000, blocks: 6 },
    fenced: { cycles: 1_000, blocks: 6 },
    parallel: { cyclesPerTask: 10, blocks: 3 },
    handoff: { acquisitionsPerProcess: 500, maxMs: 4_000, drainMs: 2_000, idleFloorSamples: 500, leaseMs: 3_000 },
    held: { acquisitionsPerProcess: 10_000, maxMs: 3_000, idleFloorSamples: 50, leaseMs: 3_000 },
    readWrite: { cycles: 6_400, loadMs: 5_000 },
    redlock: { cycles: 600, blocks: 3 },
    watchdog: { locks: 10_000, leaseMs: 3_000, windowMs: 4_000 },
    memory: { cycles: 1_000_000, tasks: 64, samples: 10 },
  },
  smoke: {
    ownCostCycles: 500,
    uncontended: { cycles: 60, blocks: 2 },
    fenced: { cycles: 20, blocks: 1 },
    parallel: { cyclesPerTask: 1, blocks: 1 },
    handoff: { acquisitionsPerProcess: 10, maxMs: 500, drainMs: 500, idleFloorSamples: 50, leaseMs: 1_000 },
    held: { acquisitionsPerProcess: 1, maxMs: 200, idleFloorSamples: 10, leaseMs: 1_000 },
    readWrite: { cycles: 256, loadMs: 400 },
    redlock: { cycles: 20, blocks: 1 },
    // redlock-universal re-extends in a busy loop below a TTL of about 1.25 s: stay above.
    watchdog: { locks: 100, leaseMs: 1_500, windowMs: 1_600 },
    memory: { cycles: 4_000, tasks: 16, samples: 4 },
  },
} as const;
