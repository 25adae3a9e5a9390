/**
 * How much work each scenario does. `full` fits `pnpm bench` (build included) in about 10
 * minutes on a 2-core machine; `smoke` runs every scenario and contender in about a minute, to
 * keep the harness working, and its figures mean nothing.
 *
 * Scenarios with headline figures run `repetitions` times (issue 16), and their sizes here are
 * per repetition: the three together cost less than one and a half of the single run they replace.
 * Measured: 552 s for the scenarios (without the build) on a 2-core machine that other test
 * suites shared, where the single run took 327 s on a quiet one; the scenarios that run once took
 * 1.4 times as long there, so the repeated ones cost about 1.3 times their single run. The single
 * run's sizes were cut to fit, each no further than a repetition still measures what its
 * scenario is about:
 * - 1 and 2: 1,500 sequential cycles (3 blocks) and 5,120 parallel acquisitions (2 blocks) per
 *   repetition, as many as or more than one block of the single run, which took under a second.
 * - 3 and 4: 300 acquisitions per process (1,200 a run), enough for a p99 of the handoff and the
 *   wait over a thousand samples; the 3 s cap only stops the slowest peer (node-redisson, about
 *   400 acquisitions/s), which still makes more than a thousand.
 * - 3c: 1 s of holds, not 3: at 2 ms about 500 acquisitions, at 20 ms 50 to 60 with 8 waiters
 *   (each waiter's turn comes 7 times: their p99 is the unluckiest wait, which is the headline)
 *   and about 180 with 128, whose draining of every queued waiter (2.6 s) the cut cannot shorten.
 * - 6: 300 RedLock acquisitions, a p50 over 300 samples.
 * - 7: a 2 s lease watched for 2.5 s (was 3 s for 4 s): the window still outlasts the lease,
 *   every library renews at least once in it, and round trips per renewal pass do not depend on
 *   the lease; above the 1.25 s below which redlock-universal re-extends in a busy loop.
 * Scenarios without headline figures (1b, 5, 8) run once, at their former sizes.
 * - 9 (the semaphore, added later): 9a as scenario 1; 9b 300 acquisitions per process (1,200 a
 *   run, for a wait p99 over a thousand samples), capped at 2 s, for one permit and for two; 9c 64
 *   waiters watched for 2 s. Measured: 50 s for the three contenders, repetitions included, run
 *   alone on the shared 2-core machine.
 */
export const SIZES = {
  full: {
    repetitions: 3,
    ownCostCycles: 20_000,
    uncontended: { cycles: 1_500, blocks: 3 },
    fenced: { cycles: 1_000, blocks: 6 },
    parallel: { cyclesPerTask: 10, blocks: 2 },
    handoff: { acquisitionsPerProcess: 300, maxMs: 3_000, drainMs: 1_500, idleFloorSamples: 300, leaseMs: 3_000 },
    held: { acquisitionsPerProcess: 10_000, maxMs: 1_000, idleFloorSamples: 50, leaseMs: 3_000 },
    readWrite: { cycles: 6_400, loadMs: 5_000 },
    redlock: { cycles: 300, blocks: 2 },
    watchdog: { locks: 10_000, leaseMs: 2_000, windowMs: 2_500 },
    memory: { cycles: 1_000_000, tasks: 64, samples: 10 },
    semaphore: {
      permits: 4,
      uncontended: { cycles: 1_500, blocks: 3 },
      contended: {
        tasksPerProcess: 4,
        holdMs: 2,
        acquisitionsPerProcess: 300,
        maxMs: 2_000,
        drainMs: 1_500,
        idleFloorSamples: 100,
      },
      waiting: { waiters: 64, windowMs: 2_000, drainMs: 5_000 },
    },
  },
  smoke: {
    // Two: the fewest that still runs the interleaving and the pairing of repetitions; a third
    // would add half a minute to CI for figures that mean nothing.
    repetitions: 2,
    ownCostCycles: 500,
    uncontended: { cycles: 30, blocks: 1 },
    fenced: { cycles: 20, blocks: 1 },
    parallel: { cyclesPerTask: 1, blocks: 1 },
    handoff: { acquisitionsPerProcess: 10, maxMs: 500, drainMs: 500, idleFloorSamples: 50, leaseMs: 1_000 },
    held: { acquisitionsPerProcess: 1, maxMs: 200, idleFloorSamples: 10, leaseMs: 1_000 },
    readWrite: { cycles: 256, loadMs: 400 },
    redlock: { cycles: 10, blocks: 1 },
    // redlock-universal re-extends in a busy loop below a TTL of about 1.25 s: stay above.
    watchdog: { locks: 100, leaseMs: 1_500, windowMs: 1_600 },
    memory: { cycles: 4_000, tasks: 16, samples: 4 },
    semaphore: {
      permits: 4,
      uncontended: { cycles: 30, blocks: 1 },
      contended: {
        tasksPerProcess: 2,
        holdMs: 2,
        acquisitionsPerProcess: 10,
        maxMs: 400,
        drainMs: 500,
        idleFloorSamples: 10,
      },
      waiting: { waiters: 8, windowMs: 200, drainMs: 2_000 },
    },
  },
} as const;
