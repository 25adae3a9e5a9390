import { LockLostError, LockNotHeldError, type RedisUnavailableError } from '../errors/LockError.js';
import type { LockClient } from '../client/LockClient.js';
import type { Renewal, RenewalTarget } from '../watchdog/RenewalScheduler.js';

/** How a lock kind describes one successful acquisition to {@link HeldLock}. For lock kind authors. */
export interface HoldDescription {
  readonly client: LockClient;
  /** The lock's name. */
  readonly name: string;
  /** The owner id (the part after `<clientId>:` in the owner field). */
  readonly owner: string;
  /** The lease in milliseconds, or `undefined` when the watchdog renews the lock. */
  readonly leaseTime: number | undefined;
  /** What the watchdog renews, when `leaseTime` is `undefined`. */
  readonly renewal: RenewalTarget | undefined;
  /** When the acquire was sent, on the monotonic clock (`performance.now()`). */
  readonly acquiredAt: number;
  /**
   * Releases this one hold. Resolves `true` when it was released, `false` when the owner did not
   * hold the lock. Called with the same `requestId` on a retry, so a repeat is harmless.
   */
  release(requestId: string): Promise<boolean>;
}

/**
 * One acquisition of a lock, returned by `acquire` and `tryAcquire`. Release it exactly once,
 * best with `await using`:
 *
 * ```ts
 * await using held = await lock.acquire();
 * await work(held.signal);
 * ```
 *
 * Its {@link HeldLock.signal} aborts with a {@link LockLostError} when the lock is lost while held
 * (the watchdog found it gone or could not reach Redis in time, or a fixed lease ran out), so
 * work can stop before it conflicts with the next holder.
 */
export class HeldLock implements AsyncDisposable {
  /** The lock's name. */
  readonly name: string;
  /** The owner id holding it; pass it as `owner` to re-enter from elsewhere. */
  readonly owner: string;
  /** The fixed lease in milliseconds, or `undefined` when the watchdog keeps the lock alive. */
  readonly leaseTime: number | undefined;
  readonly #controller = new AbortController();
  readonly #release: (requestId: string) => Promise<boolean>;
  readonly #requestId: string;
  #renewal: Renewal | undefined;
  #leaseTimer: NodeJS.Timeout | undefined;
  #released = false;

  /** For lock kind authors: wraps a successful acquisition and starts keeping it alive. */
  constructor(hold: HoldDescription) {
    this.name = hold.name;
    this.owner = hold.owner;
    this.leaseTime = hold.leaseTime;
    this.#release = hold.release;
    this.#requestId = hold.client.newRequestId();
    if (hold.renewal) {
      this.#renewal = hold.client.renewals.register(hold.renewal, (error) => this.#lose(error), hold.acquiredAt);
    } else if (hold.leaseTime !== undefined) {
      const left = hold.acquiredAt + hold.leaseTime - performance.now();
      this.#leaseTimer = setTimeout(
        () => this.#lose(new LockLostError(`The ${hold.leaseTime} ms lease of lock "${hold.name}" ended`, { lockName: hold.name })),
        Math.max(0, left),
      );
      this.#leaseTimer.unref();
    }
  }

  /** Aborts with a {@link LockLostError} when the lock is lost while held. */
  get signal(): AbortSignal {
    return this.#controller.signal;
  }

  /** `true` once released. */
  get released(): boolean {
    return this.#released;
  }

  /**
   * Releases this hold; the owner's last hold frees the lock and wakes a waiter. Renewal stops
   * before the release is sent, so a renewal can never outlive it.
   *
   * @throws {@link LockNotHeldError} when already released, or when the lock was lost (its lease
   *   ran out or it was force-unlocked): nothing was changed in Redis.
   * @throws {@link RedisUnavailableError} when Redis could not be reached (or another failure of the
   *   call); calling again is safe.
   */
  async release(): Promise<void> {
    if (this.#released) throw new LockNotHeldError(`Lock "${this.name}" was already released by this hold`, { lockName: this.name });
    this.#stopKeepingAlive();
    // A failed call changed nothing we know of, so the hold stays releasable: a retry carries the
    // same request id, and the unlock latch makes it harmless if the first call did run.
    const held = await this.#release(this.#requestId);
    this.#released = true;
    if (!held) {
      throw new LockNotHeldError(`Lock "${this.name}" is not held by owner ${this.owner}: its lease ran out or it was force-unlocked`, {
        lockName: this.name,
      });
    }
  }

  /** Releases the hold unless it was released already. */
  async [Symbol.asyncDispose](): Promise<void> {
    if (!this.#released) await this.release();
  }

  #stopKeepingAlive(): void {
    this.#renewal?.cancel();
    this.#renewal = undefined;
    clearTimeout(this.#leaseTimer);
    this.#leaseTimer = undefined;
  }

  #lose(error: LockLostError): void {
    this.#stopKeepingAlive();
    this.#controller.abort(error);
  }
}
