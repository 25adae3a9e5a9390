/**
 * Permits an acquisition took from a {@link Semaphore}: give them back with {@link HeldPermits.release},
 * or hold them in an `await using` declaration, which gives them back when the block ends.
 *
 * A semaphore has no owner: Redis knows how many permits are available, and, under the hold id of
 * the attempt that took them (in `deadbolt_holds:{name}`), how many this acquisition took. This
 * object carries that id, and its release gives the permits back once, however often the request
 * reaches Redis.
 */
export class HeldPermits implements AsyncDisposable {
  /** The semaphore's name. */
  readonly name: string;
  /** How many permits this acquisition took. */
  readonly permits: number;
  readonly #giveBack: () => Promise<void>;
  #released = false;

  /**
   * Made by `Semaphore.acquire` and `Semaphore.tryAcquire`.
   *
   * @param giveBack - gives back what the acquisition took, by its hold id, announcing it to waiters
   * @internal
   */
  constructor(name: string, permits: number, giveBack: () => Promise<void>) {
    this.name = name;
    this.permits = permits;
    this.#giveBack = giveBack;
  }

  /** `true` once {@link HeldPermits.release} was called (`false` again after a release that failed). */
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
   */
  async release(): Promise<boolean> {
    if (this.#released) return false;
    this.#released = true;
    try {
      if (this.permits > 0) await this.#giveBack();
    } catch (error) {
      this.#released = false;
      throw error;
    }
    return true;
  }

  /** Gives the permits back unless they were released already. */
  async [Symbol.asyncDispose](): Promise<void> {
    await this.release();
  }
}
