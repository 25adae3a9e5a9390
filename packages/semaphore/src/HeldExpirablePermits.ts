import { HeldLock, type ExtendOptions } from '@deadbolt/core';
import type { HoldHandle } from '@deadbolt/core/kit';

/**
 * Permits a {@link PermitExpirableSemaphore} acquisition took, each under its own id: a
 * {@link @deadbolt/core!index.HeldLock} of several permits. Give them back with `release()` or an
 * `await using` declaration. Without `leaseTime` the client's watchdog keeps their lease alive
 * (batched with the client's locks); with one, they expire when it ends, and Redis gives them
 * back to the semaphore by itself. Either way `signal` aborts with a `LockLostError` when they
 * are lost: the lease ended, the watchdog found them gone (reclaimed, released by id elsewhere) or
 * could not reach Redis in time.
 *
 * `release()` rejects with `LockLostError` when any of the permits was no longer held (it still
 * gives back the others), and with `LockNotHeldError` when called again; `extend(ms)` and {@link HeldExpirablePermits.updateLeaseTime} set
 * a fixed lease from now on (on permits the watchdog keeps, `keptByWatchdog`, only with
 * `{ stopWatchdog: true }`). `owner` is the ids joined with commas: permits have no owner.
 */
export class HeldExpirablePermits extends HeldLock {
  /** The permit ids, one per permit: Redisson's, usable with `release(id)` by any process, Java too. */
  readonly ids: readonly string[];

  /**
   * Made by `PermitExpirableSemaphore.acquire` and `tryAcquire`.
   *
   * @internal
   */
  constructor(hold: HoldHandle, ids: readonly string[]) {
    super(hold);
    this.ids = ids;
  }

  /** How many permits this acquisition took. */
  get permits(): number {
    return this.ids.length;
  }

  /**
   * Sets the permits' lease to end `leaseTime` ms from now, shorter or longer than before, and
   * stops their renewal by the watchdog: `extend(leaseTime)` under Redisson's name. Updates go out
   * one after another; one that arrives after a later one, or after its deadline, changes nothing,
   * and a renewal sent before it leaves the lease it set alone.
   *
   * @param leaseTime - the new lease in milliseconds, at least 1
   * @param options - `stopWatchdog: true` for permits the watchdog keeps (`keptByWatchdog`)
   * @throws `LockLostError` when the permits were lost, or a permit was no longer held (the signal
   *   aborts then); `LockNotHeldError` when released already; `InvalidArgumentError` for a bad
   *   `leaseTime`, or naming `options.stopWatchdog` for permits the watchdog keeps without it; `RedisUnavailableError`
   *   when the outcome is unknown: the update may have run, so the permits keep whichever lease
   *   ends first, their old one or `leaseTime` from the call (renewal stops), and the signal
   *   aborts then
   */
  updateLeaseTime(leaseTime: number, options?: ExtendOptions): Promise<void> {
    return this.extend(leaseTime, options);
  }
}
