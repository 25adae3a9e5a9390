import type { LockClient } from '@deadbolt/core';

/** One tick of a scheduled job, as {@link runOncePerTick} takes it. */
export interface Tick {
  /** The job's name: the first part of each tick's lock key. */
  readonly job: string;
  /** The time the tick was scheduled for (not the time this instance fired): the second part of the key, to the minute. */
  readonly scheduledAt: Date;
  /**
   * How long the tick's key lives, in milliseconds: longer than the job runs plus the latest an
   * instance may fire for the tick (clock skew, a paused process, a slow start). The schedule's
   * interval is a safe choice: each tick has a key of its own, so one outliving its tick
   * delays nothing.
   */
  readonly leaseMs: number;
}

/**
 * Runs `job` for `tick` on one instance only, however late the others fire for it. The lock key
 * names the tick (`report:2026-11-28T10:00`), is taken with `tryAcquire` and a fixed lease, and is
 * not released when the job is done: it stays until its lease ends, so an instance that fires for
 * the same tick after the job finished still finds it and skips the tick. Releasing it at the
 * end, as a lock around a critical section would, lets such an instance run the tick again.
 *
 * @param locks - the client of this instance
 * @param tick - the tick, and how long its key lives
 * @param job - the work, given the hold's signal (it aborts if the lease ends while the job runs)
 * @returns `true` when this instance ran the tick, `false` when another one had it
 */
export async function runOncePerTick(
  locks: LockClient,
  tick: Tick,
  job: (signal: AbortSignal) => Promise<void>,
): Promise<boolean> {
  const key = `${tick.job}:${tick.scheduledAt.toISOString().slice(0, 16)}`;
  const held = await locks.lock(key).tryAcquire({ leaseTime: tick.leaseMs });
  if (held === null) return false;
  // Not released: the key marks the tick as taken until its lease ends.
  await job(held.signal);
  return true;
}
