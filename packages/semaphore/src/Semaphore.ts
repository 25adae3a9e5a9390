import { RedisUnavailableError } from '@deadbolt/core';
import { call, runAttempt, waitOnChannel, type Call } from '@deadbolt/core/kit';
import { addPermitsCommand } from './commands/addPermits.js';
import { availablePermitsCommand } from './commands/availablePermits.js';
import { drainPermitsCommand } from './commands/drainPermits.js';
import { returnPermitsCommand } from './commands/returnPermits.js';
import { tryAcquirePermitsCommand } from './commands/tryAcquirePermits.js';
import { HeldPermits } from './HeldPermits.js';
import { keepHolds } from './holdsKeeper.js';
import { checkAcquire, checkPermits } from './permitArguments.js';
import { PermitWaitTimeoutError } from './PermitWaitTimeoutError.js';
import { SemaphoreBase } from './SemaphoreBase.js';
import { SEMAPHORE_WAKES } from './semaphoreKeys.js';

/** Options of {@link Semaphore.acquire} and {@link Semaphore.tryAcquire}. Every time is in milliseconds. */
export interface PermitAcquireOptions {
  /**
   * How long to wait for the permits. `acquire` defaults to the client's `defaultWaitTime`
   * (without it `Infinity`) and rejects with {@link PermitWaitTimeoutError} when it runs out; `tryAcquire` defaults to 0 (one attempt) and
   * resolves `null`.
   */
  waitTime?: number;
  /** Aborts the wait; the promise rejects with the signal's reason and nothing is taken or left behind. */
  signal?: AbortSignal;
}

/**
 * A distributed counting semaphore: at most as many holders at once as it has permits, across
 * processes. Redisson's `RSemaphore`, in its layout (the available permits as a decimal string at
 * the semaphore's name, announced on `redisson_sc:{name}`), so Java and Node services share one
 * semaphore: either side sets permits, acquires and releases, and each side's release wakes the
 * other's waiters.
 *
 * An acquisition of several permits takes them all at once or none, and waits by pub/sub through
 * the client's shared subscription, never polling. The semaphore has no owner and no lease: a
 * process that dies holding permits keeps them from everyone until someone adds them back (see
 * the guide's "When things fail"). Each call that changes the permits is one request that runs
 * once, never after its deadline, however often the driver sends it; each acquisition attempt
 * holds what it took under a hold id of its own (in `deadbolt_holds:{name}`), which its release
 * gives back once, and an attempt that failed with Redis unreachable is given back. The marks
 * live as the semaphore's key does: a semaphore that expires (a Redisson peer may give it a TTL)
 * takes its held permits with it, and their release then rejects with `LockLostError`.
 *
 * @example
 * ```ts
 * const exports = new Semaphore(locks, 'report-exports');
 * await exports.trySetPermits(2); // at most two exports run at once, across every process
 * ```
 */
export class Semaphore extends SemaphoreBase {
  /** The permits available now (0 when the semaphore has no key; below 0 after `addPermits` took more than there were). */
  async availablePermits(): Promise<number> {
    return this.run(call(availablePermitsCommand, { name: this.name }));
  }

  /**
   * Takes every available permit at once: Redisson's `drainPermits`. The permits are not held by
   * anyone afterwards; give them back with {@link Semaphore.release} or `addPermits`.
   *
   * One request, run once however often it reaches Redis, never after its deadline: a copy drains
   * nothing more and replies the same. As Redisson's, it drops the TTL the semaphore's key may have.
   *
   * @returns how many permits there were (0 when the semaphore has no key, which it then still lacks)
   */
  async drainPermits(): Promise<number> {
    return this.runOnce(call(drainPermitsCommand, { name: this.name, request: this.runtime.newHoldId() }));
  }

  /**
   * Takes `permits` permits, all at once, waiting as long as `waitTime` for them. While it waits it
   * holds none of them: a release wakes it, and it takes all it asked for in one script or sleeps
   * again. `acquire(0)` succeeds at once without asking Redis.
   *
   * @param permits - how many permits to take, a non-negative safe integer (default 1)
   * @returns the permits taken, to give back with `release()` or `await using`
   * @throws {@link PermitWaitTimeoutError} when `waitTime` ran out; {@link @deadbolt/core!index.InvalidArgumentError}
   *   for a bad argument; `RedisUnavailableError`, `ClientClosedError`; rejects with the signal's reason when aborted;
   *   `ReplicaSyncError` when the client's `replicaSync` replicas did not confirm the permits (given back then)
   */
  async acquire(permits = 1, options?: PermitAcquireOptions): Promise<HeldPermits> {
    const { waitTime, signal } = checkAcquire(permits, options, {
      minPermits: 0,
      defaultWait: this.runtime.defaultWaitTime,
      leased: false,
    });
    const held = await this.#take(permits, waitTime, signal);
    if (held === null) throw new PermitWaitTimeoutError(this.name, waitTime, permits);
    return held;
  }

  /**
   * Takes `permits` permits, all at once, if they are available now, or within `waitTime`.
   *
   * @param permits - how many permits to take, a non-negative safe integer (default 1)
   * @returns the permits taken, or `null` when too few were available within `waitTime` (default 0: one attempt)
   * @throws {@link @deadbolt/core!index.InvalidArgumentError} for a bad argument; `RedisUnavailableError`,
   *   `ClientClosedError`; rejects with the signal's reason when aborted; `ReplicaSyncError` when
   *   the client's `replicaSync` replicas did not confirm the permits (given back then)
   */
  async tryAcquire(permits = 1, options?: PermitAcquireOptions): Promise<HeldPermits | null> {
    const { waitTime, signal } = checkAcquire(permits, options, { minPermits: 0, defaultWait: 0, leased: false });
    return this.#take(permits, waitTime, signal);
  }

  /**
   * Adds `permits` to the semaphore and wakes its waiters: Redisson's `release(n)`, for permits
   * that pass between processes (one acquires, another releases). Permits held as a
   * {@link HeldPermits} are given back with its own `release()` instead. Nothing checks that
   * these permits were ever taken: releasing more than were taken raises the semaphore's limit.
   * One request, run once however often it reaches Redis, never after its deadline: a copy adds
   * nothing more. The semaphore keeps its TTL, if it has one, as with Redisson's `release(n)`.
   *
   * @param permits - how many to give back, a non-negative safe integer (default 1); 0 does nothing
   * @throws {@link @deadbolt/core!index.InvalidArgumentError} when `permits` is not a non-negative safe integer;
   *   `ReplicaSyncError` when the client's `replicaSync` replicas did not confirm the release (the permits are
   *   added on the master)
   */
  async release(permits = 1): Promise<void> {
    checkPermits(permits, 0);
    if (permits === 0) return;
    await this.runOnce(
      call(addPermitsCommand, { name: this.name, permits, request: this.runtime.newHoldId(), ttl: 'keep' }),
    );
    await this.confirmReleased();
  }

  /** @internal */
  protected addPermitsCall(permits: number, request: string): Call<number> {
    return call(addPermitsCommand, { name: this.name, permits, request, ttl: 'clear' });
  }

  // Takes the permits, waiting up to `waitTime`: the held permits, or `null` when the wait ran out.
  async #take(permits: number, waitTime: number, signal: AbortSignal | undefined): Promise<HeldPermits | null> {
    const { runtime } = this;
    runtime.assertOpen();
    signal?.throwIfAborted();
    if (permits === 0) return new HeldPermits(this.name, 0, () => Promise.resolve(true));
    const { name } = this;
    // Each attempt has a hold id of its own: the permits it takes are held under it, and a copy of
    // it, however late, takes nothing (see try-acquire.lua).
    let taken: { hold: string; ttl: number } | undefined;
    let uncertain: string | undefined;
    const attempt = async () => {
      const hold = runtime.newHoldId();
      const giveBack = () => this.#giveBack(hold);
      let reply;
      try {
        reply = await runAttempt(
          runtime,
          call(tryAcquirePermitsCommand, { name, permits, hold }),
          (late) => late.outcome === 'taken',
          giveBack,
        );
      } catch (error) {
        // The request may have run before the connection failed (node-redis then rejects it
        // without sending it again), or may run later (a copy still queued by the driver).
        if (error instanceof RedisUnavailableError) uncertain = hold;
        throw error;
      }
      if (reply.outcome !== 'taken') return false;
      taken = { hold, ttl: reply.ttl };
      return true;
    };
    try {
      await waitOnChannel({
        runtime,
        channel: this.channel,
        wakes: SEMAPHORE_WAKES,
        demand: permits,
        waitTime,
        signal,
        check: attempt,
        checkBeforeJoining: true,
      });
    } catch (error) {
      // Gives back what it took, or leaves its record claimed so that a copy arriving later takes nothing.
      if (uncertain !== undefined) await this.#giveBack(uncertain);
      throw error;
    }
    if (taken === undefined) return null;
    const { hold, ttl } = taken;
    await this.keepTaken(signal, () => this.#giveBack(hold));
    // While they are held, their mark must not expire before the semaphore does (see holdsKeeper.ts).
    const kept = keepHolds(runtime, name, ttl);
    return new HeldPermits(name, permits, async () => {
      const givenBack = await this.runOnce(call(returnPermitsCommand, { name, hold }));
      kept();
      if (givenBack > 0) await this.confirmReleased();
      return givenBack > 0;
    });
  }

  // Gives back what the attempt `hold` took, where nobody awaits the outcome: once however often
  // it is sent (so it is sent again while Redis is unreachable), and a final failure is reported,
  // not thrown.
  #giveBack(hold: string): Promise<void> {
    return this.giveBack(call(returnPermitsCommand, { name: this.name, hold }));
  }
}
