import { LockNotHeldError, type LockHost } from '@deadbolt/core';
import { call, checkDuration, runAttempt, type Call, type HoldHandle } from '@deadbolt/core/kit';
import { expirableAddPermitsCommand } from './commands/expirableAddPermits.js';
import { expirableAvailablePermitsCommand } from './commands/expirableAvailablePermits.js';
import { expirableReleaseCommand } from './commands/expirableRelease.js';
import { expirableRenewCommand } from './commands/expirableRenew.js';
import { expirableTryAcquireCommand, type ExpirableAcquireReply } from './commands/expirableTryAcquire.js';
import { expirableUpdateLeaseCommand } from './commands/expirableUpdateLease.js';
import { HeldExpirablePermits } from './HeldExpirablePermits.js';
import { checkAcquire, type CheckedPermitAcquire } from './permitArguments.js';
import { permitTimeoutsKey } from './permitExpirableKeys.js';
import { checkPermitId, newPermitIds } from './permitIds.js';
import { PermitWaitTimeoutError } from './PermitWaitTimeoutError.js';
import type { PermitAcquireOptions } from './Semaphore.js';
import { SemaphoreBase } from './SemaphoreBase.js';
import { waitForPermits } from './waitForPermits.js';

/** Options of {@link PermitExpirableSemaphore.acquire} and {@link PermitExpirableSemaphore.tryAcquire}. Every time is in milliseconds. */
export interface ExpirablePermitAcquireOptions extends PermitAcquireOptions {
  /**
   * Each permit's lease: Redis gives it back to the semaphore by itself once it ends, and the
   * held permits' signal aborts then. Without it the client's watchdog renews the lease
   * (`watchdogTimeout`) for as long as the permits are held.
   */
  leaseTime?: number;
}

/**
 * A distributed semaphore whose permits have ids and leases: Redisson's
 * `RPermitExpirableSemaphore`, in its layout (the free permits as a decimal string at the name,
 * the held ones in the sorted set `{name}:timeout`, scored by the end of their lease, changes
 * announced on `redisson_sc:{name}`), so Java and Node services share one semaphore and release
 * each other's permits by id.
 *
 * A permit whose lease ended is reclaimed by the next operation that looks (an acquisition, a
 * release, `availablePermits`), so a process that dies holding permits gives them back within
 * a lease. Without `leaseTime` the watchdog keeps held permits alive. An acquisition of several
 * permits takes them all at once or none, and waits by pub/sub, and until the earliest held
 * permit's lease ends, never polling. Each attempt has a hold id of its own, whose request record
 * makes a copy of it that arrives late take nothing; every request that takes, frees or
 * lengthens something is refused past its deadline.
 *
 * @example
 * ```ts
 * const encoders = new PermitExpirableSemaphore(locks, 'video-encoders');
 * await encoders.trySetPermits(2); // two encoder licences, shared by every process
 * ```
 */
export class PermitExpirableSemaphore extends SemaphoreBase {
  /** The sorted set of its held permits, `{name}:timeout`. */
  readonly timeoutsKey: string;

  /**
   * @param client - the `LockClient` to use
   * @param name - the semaphore's name; braces in it must form a hash tag, as in a lock name
   * @throws {@link @deadbolt/core!index.InvalidArgumentError} when `name` is not a valid lock name, or `client` not a `LockClient`
   */
  constructor(client: LockHost, name: string) {
    super(client, name);
    this.timeoutsKey = permitTimeoutsKey(this.name);
  }

  /** The permits free now, after reclaiming those whose lease ended (0 when the semaphore has no key). */
  async availablePermits(): Promise<number> {
    return this.run(call(expirableAvailablePermitsCommand, { name: this.name }));
  }

  /**
   * Takes `permits` permits, all at once, each under a fresh id, waiting as long as `waitTime`
   * for them. While it waits it holds none of them: a release wakes it, and so does the end of
   * the earliest held permit's lease; it takes all it asked for in one script or sleeps again.
   *
   * @param permits - how many permits to take, a positive safe integer (default 1)
   * @returns the permits taken, with their ids, to give back with `release()` or `await using`
   * @throws {@link PermitWaitTimeoutError} when `waitTime` ran out; {@link @deadbolt/core!index.InvalidArgumentError}
   *   for a bad argument; `RedisUnavailableError`, `ClientClosedError`; rejects with the signal's reason when aborted;
   *   `ReplicaSyncError` when the client's `replicaSync` replicas did not confirm the permits (given back then)
   */
  async acquire(permits = 1, options?: ExpirablePermitAcquireOptions): Promise<HeldExpirablePermits> {
    const checked = checkAcquire(permits, options, {
      minPermits: 1,
      defaultWait: this.runtime.defaultWaitTime,
      leased: true,
    });
    const held = await this.#take(checked);
    if (held === null) throw new PermitWaitTimeoutError(this.name, checked.waitTime, permits);
    return held;
  }

  /**
   * Takes `permits` permits, all at once, if they are free now, or within `waitTime`.
   *
   * @param permits - how many permits to take, a positive safe integer (default 1)
   * @returns the permits taken, or `null` when too few were free within `waitTime` (default 0: one attempt)
   * @throws {@link @deadbolt/core!index.InvalidArgumentError} for a bad argument; `RedisUnavailableError`,
   *   `ClientClosedError`; rejects with the signal's reason when aborted; `ReplicaSyncError` when
   *   the client's `replicaSync` replicas did not confirm the permits (given back then)
   */
  async tryAcquire(permits = 1, options?: ExpirablePermitAcquireOptions): Promise<HeldExpirablePermits | null> {
    return this.#take(checkAcquire(permits, options, { minPermits: 1, defaultWait: 0, leased: true }));
  }

  /**
   * Gives back the permit held under `permitId`, taken by any process (a Java one too), and wakes
   * waiters: Redisson's `release(permitId)`. Permits held as {@link HeldExpirablePermits} in this
   * process are given back with its own `release()` instead, which also stops their renewal.
   *
   * @throws {@link @deadbolt/core!index.LockNotHeldError} when no permit is held under that id (released
   *   already, or its lease ended); {@link @deadbolt/core!index.InvalidArgumentError} when `permitId` is not hex;
   *   `ReplicaSyncError` when the client's `replicaSync` replicas did not confirm the release (the permit is
   *   free on the master)
   */
  async release(permitId: string): Promise<void> {
    if (!(await this.tryRelease(permitId))) {
      throw new LockNotHeldError(
        `No permit of semaphore "${this.name}" is held under id ${permitId}: released already, or its lease ended`,
        {
          lockName: this.name,
        },
      );
    }
  }

  /**
   * Gives back the permit held under `permitId`, if one is: Redisson's `tryRelease(permitId)`.
   * Safe to call again: a permit is given back once.
   *
   * @returns `true` when it was held and is now free, `false` when no permit is held under that id
   * @throws {@link @deadbolt/core!index.InvalidArgumentError} when `permitId` is not hex; `ReplicaSyncError` when
   *   the client's `replicaSync` replicas did not confirm the release (the permit is free on the master)
   */
  async tryRelease(permitId: string): Promise<boolean> {
    const id = checkPermitId(permitId);
    // A request id of this call's own: a copy of it (a driver's re-send, or a retry after an
    // outcome not learned) answers the first outcome, while calling again is a new request (and
    // finds the permit given back).
    const released =
      (await this.runOnce(
        call(expirableReleaseCommand, { name: this.name, ids: [id], request: this.runtime.newHoldId() }),
      )) === 1;
    if (released) await this.confirmReleased();
    return released;
  }

  /**
   * Sets the lease of the permit held under `permitId` to end `leaseTime` ms from now, shorter or
   * longer than before: Redisson's `updateLeaseTime`. A {@link HeldExpirablePermits} in this
   * process is updated with its own `updateLeaseTime`, which also stops its renewal and moves its
   * signal (here its renewal would set the lease again at its next tick). Never past its
   * deadline: a copy that arrives late changes nothing.
   *
   * @returns `true` when a permit is held under that id, `false` when none is (nothing changed)
   * @throws {@link @deadbolt/core!index.InvalidArgumentError} when `permitId` is not hex or `leaseTime` not positive
   */
  async updateLeaseTime(permitId: string, leaseTime: number): Promise<boolean> {
    const id = checkPermitId(permitId);
    const lease = checkDuration(leaseTime, 'leaseTime', { min: 1 });
    // A request of its own, which stands for a hold too: its lease record makes a copy change nothing.
    const request = this.runtime.newHoldId();
    return this.runOnce(
      call(expirableUpdateLeaseCommand, { name: this.name, ids: [id], lease, hold: request, request }),
    );
  }

  /** @internal */
  protected addPermitsCall(permits: number, request: string): Call<number> {
    return call(expirableAddPermitsCommand, { name: this.name, permits, request });
  }

  // Takes the permits, waiting up to `waitTime`: the held permits, or `null` when the wait ran out.
  async #take({ permits, waitTime, signal, leaseTime }: CheckedPermitAcquire): Promise<HeldExpirablePermits | null> {
    const { runtime } = this;
    runtime.assertOpen();
    signal?.throwIfAborted();
    // One set of ids for every attempt of this acquisition, each attempt with a hold id of its
    // own: a copy of an attempt, however late, takes nothing (see expirable-try-acquire.lua).
    const ids = newPermitIds(permits);
    const lease = leaseTime ?? runtime.watchdogTimeout;
    let taken: { readonly hold: string; readonly sentAt: number } | undefined;
    let uncertain: string | undefined;
    const attempt = async (): Promise<ExpirableAcquireReply> => {
      const hold = runtime.newHoldId();
      const sentAt = performance.now();
      let reply: ExpirableAcquireReply;
      try {
        reply = await runAttempt(
          runtime,
          call(expirableTryAcquireCommand, { name: this.name, ids, lease, hold }),
          (late) => late.taken,
          () => this.#giveBack(ids, hold),
        );
      } catch (error) {
        uncertain = hold;
        throw error;
      }
      if (reply.taken) taken = { hold, sentAt };
      return reply;
    };
    try {
      await waitForPermits({ runtime, channel: this.channel, waitTime, signal, attempt });
    } catch (error) {
      // An attempt that failed may have taken them all the same, or may still arrive.
      if (uncertain !== undefined) await this.#giveBack(ids, uncertain);
      throw error;
    }
    // The wait ran out.
    if (taken === undefined) return null;
    const { hold, sentAt } = taken;
    await this.keepTaken(signal, () => this.#giveBack(ids, hold));
    return new HeldExpirablePermits(this.#handle(ids, leaseTime, sentAt, hold), ids);
  }

  // How HeldLock keeps, renews, extends and releases the permits the attempt `hold` took under
  // `ids`. The hold id names them in every request: a release keeps its outcome in the attempt's
  // record (a copy of the attempt then takes nothing), an update its number in their lease record.
  #handle(ids: readonly string[], leaseTime: number | undefined, acquiredAt: number, hold: string): HoldHandle {
    const { runtime } = this;
    const { name } = this;
    const field = ids.join(' ');
    const target = { command: expirableRenewCommand, name, field, hold };
    return {
      name,
      owner: ids.join(','),
      leaseTime,
      acquiredAt,
      // Their fixed leases are their own: nothing to guard.
      keepAlive: (onLost, from, until) => (until === undefined ? runtime.keepAlive(target, onLost, from) : undefined),
      release: async () => {
        const released = await runtime.run(call(expirableReleaseCommand, { name, ids, request: hold }));
        if (released > 0) await this.confirmReleased();
        return released === ids.length;
      },
      extend: (lease) =>
        runtime.run(call(expirableUpdateLeaseCommand, { name, ids, lease, hold, request: runtime.newHoldId() })),
      reportLost: (error) => {
        if (runtime.events.listening('lockLost'))
          runtime.events.emit('lockLost', { key: name, field, reason: error.reason, error });
      },
    };
  }

  // Gives back the permits the attempt `hold` may have taken, which nobody holds: once per attempt
  // however often it is sent (safe to try again while Redis is unreachable), and the attempt,
  // arriving later, takes nothing; what cannot be given back expires by its lease.
  #giveBack(ids: readonly string[], hold: string): Promise<void> {
    return this.giveBack(call(expirableReleaseCommand, { name: this.name, ids, request: hold }));
  }
}
