/**
 * Permits an acquisition took from a {@link Semaphore}: give them back with {@link HeldPermits.release},
 * or hold them in an `await using` declaration, which gives them back when the block ends.
 *
 * A semaphore has no owner: Redis knows only how many permits are available, not who took them.
 * This object is what remembers that these permits were taken, and it gives them back once.
 */
export class HeldPermits implements AsyncDisposable {
  /** The semaphore's name. */
  readonly name: string;
  /** How many permits this acquisition took. */
  readonly permits: number;
  readonly #giveBack: (permits: number) => Promise<void>;
  #released = false;

  /**
   * Made by `Semaphore.acquire` and `Semaphore.tryAcquire`.
   *
   * @param giveBack - adds `permits` back to the semaphore, announcing them to its waiters
   * @internal
   */
  constructor(name: string, permits: number, giveBack: (permits: number) => Promise<void>) {
    this.name = name;
    this.permits = permits;
    this.#giveBack = giveBack;
  }

  /** `true` once {@link HeldPermits.release} was called. */
  get released(): boolean {
    return this.#released;
  }

  /**
   * Gives the permits back and wakes the semaphore's waiters, in every process. Only the first
   * call sends anything; later calls resolve `false`. A release that fails (rejects with
   * `RedisUnavailableError`) may or may not have reached Redis, and it is not sent again, since
   * a second copy could give the permits back twice and let one holder too many in: check
   * `availablePermits()` and use `addPermits` to repair a count you know is short.
   *
   * @returns `true` when this call gave the permits back, `false` when an earlier call did
   */
  async release(): Promise<boolean> {
    if (this.#released) return false;
    this.#released = true;
    if (this.permits > 0) await this.#giveBack(this.permits);
    return true;
  }

  /** Gives the permits back unless they were released already. */
  async [Symbol.asyncDispose](): Promise<void> {
    await this.release();
  }
}
