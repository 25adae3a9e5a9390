import { LockLostError, LockNotHeldError } from '@deadbolt/core';
import { OneAtATime } from '@deadbolt/core/kit';

/**
 * Permits an acquisition took from a {@link Semaphore}: give them back with {@link HeldPermits.release},
 * or hold them in an `await using` declaration, which gives them back when the block ends.
 *
 * A semaphore has no owner: Redis knows how many permits are available, and, under the hold id of
 * the attempt that took them (in `deadbolt_holds:{name}`), how many this acquisition took. This
 * object carries that id, and its release gives the permits back once, however often the request
 * reaches Redis.
 *
 * The mark lives as the semaphore's key does (see the guide's "When the semaphore has a TTL"): a
 * semaphore that expires, or is deleted, takes its held permits with it, and the release of
 * permits whose mark is gone gives nothing back and rejects with `LockLostError`, as a
 * `HeldLock`'s release does for a lock that was lost. Its release follows every held thing's
 * convention: resolves once given back, rejects with `LockLostError` when they were lost and with
 * `LockNotHeldError` when called again.
 */
export class HeldPermits implements AsyncDisposable {
  /** The semaphore's name. */
  readonly name: string;
  /** How many permits this acquisition took. */
  readonly permits: number;
  readonly #giveBack: () => Promise<boolean>;
  #released = false;
  // A second release waits for the one in flight, then finds it done.
  readonly #releases = new OneAtATime();

  /**
   * Made by `Semaphore.acquire` and `Semaphore.tryAcquire`.
   *
   * @param giveBack - gives back what the acquisition took, by its hold id, announcing it to
   *   waiters: resolves `false` when nothing was marked held under it
   * @internal
   */
  constructor(name: string, permits: number, giveBack: () => Promise<boolean>) {
    this.name = name;
    this.permits = permits;
    this.#giveBack = giveBack;
  }

  /** `true` once a release completed: it gave the permits back, or found them lost. */
  get released(): boolean {
    return this.#released;
  }

  /**
   * Gives the permits back and wakes the semaphore's waiters, in every process. The request
   * carries the acquisition's hold id, so however often it reaches Redis (a driver re-sends one
   * whose reply it lost), the permits go back once. A try that fails with Redis unreachable may or
   * may not have reached Redis, so it is sent again, a few times within `commandTimeout`. A
   * release that still fails (rejects with `RedisUnavailableError`) leaves these permits
   * releasable: calling `release()` again sends the same request, which gives back only what is
   * still held. A second call while one is in flight waits for it.
   *
   * @throws `LockLostError` (reason `gone`) when nothing was held to give back: the semaphore
   *   expired or was deleted, taking the permits with it, or their mark in `deadbolt_holds:{name}`
   *   expired after a Redisson peer changed the semaphore's TTL (see the guide); also when called
   *   again more than twice `commandTimeout` after a call that failed with Redis unreachable but
   *   had given them back. The release is over either way (`released` is `true`).
   * @throws `LockNotHeldError` when a release completed already: nothing was sent
   * @throws `RedisUnavailableError` when Redis could not be reached; `ClientClosedError` once the client is closing
   * @throws `ReplicaSyncError` when the client's `replicaSync` replicas did not confirm the release:
   *   the permits are given back on the master
   */
  release(): Promise<void> {
    return this.#releases.run(() => {
      if (this.#released)
        throw new LockNotHeldError(`The permits of semaphore "${this.name}" were already released`, {
          lockName: this.name,
        });
      return this.#releaseNow();
    });
  }

  async #releaseNow(): Promise<void> {
    const givenBack = this.permits === 0 || (await this.#giveBack());
    this.#released = true;
    if (!givenBack) {
      throw new LockLostError(
        `The ${this.permits} permits of semaphore "${this.name}" were no longer held, and nothing was given back: the semaphore expired or was deleted with them, or their mark expired after its TTL changed`,
        { lockName: this.name, reason: 'gone' },
      );
    }
  }

  /** Gives the permits back unless they were released already; rejects as {@link HeldPermits.release} does. */
  async [Symbol.asyncDispose](): Promise<void> {
    if (!this.#released) await this.release();
  }
}
