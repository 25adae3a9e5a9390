import { LockNotHeldError } from '@deadbolt/core';

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
 * permits whose mark is gone gives nothing back and rejects with `LockNotHeldError`, as a
 * `HeldLock`'s release does for a lock that was lost.
 */
export class HeldPermits implements AsyncDisposable {
  /** The semaphore's name. */
  readonly name: string;
  /** How many permits this acquisition took. */
  readonly permits: number;
  readonly #giveBack: () => Promise<boolean>;
  #released = false;

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

  /** `true` once {@link HeldPermits.release} was called (`false` again after a release that failed with Redis unreachable). */
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
   * still held.
   *
   * @returns `true` when this call gave the permits back, `false` when an earlier call did (or is doing so)
   * @throws `LockNotHeldError` when nothing was held to give back: the semaphore expired or was
   *   deleted, taking the permits with it, or their mark in `deadbolt_holds:{name}` expired after a
   *   Redisson peer changed the semaphore's TTL (see the guide); also when called again more than
   *   twice `commandTimeout` after a call that failed with Redis unreachable but had given them
   *   back. The release is over either way (`released` stays `true`).
   * @throws `RedisUnavailableError` when Redis could not be reached; `ClientClosedError` once the client is closing
   */
  async release(): Promise<boolean> {
    if (this.#released) return false;
    this.#released = true;
    let givenBack: boolean;
    try {
      givenBack = this.permits === 0 || (await this.#giveBack());
    } catch (error) {
      this.#released = false;
      throw error;
    }
    if (!givenBack) {
      throw new LockNotHeldError(
        `The ${this.permits} permits of semaphore "${this.name}" were no longer held, and nothing was given back: the semaphore expired or was deleted with them, or their mark expired after its TTL changed`,
        { lockName: this.name },
      );
    }
    return true;
  }

  /** Gives the permits back unless they were released already; rejects as {@link HeldPermits.release} does. */
  async [Symbol.asyncDispose](): Promise<void> {
    await this.release();
  }
}
