interface Waiter {
  readonly grant: (acquired: boolean) => void;
}

/**
 * A counting semaphore with Java's `java.util.concurrent.Semaphore` semantics for what Redisson's
 * lock entry uses as its latch: permits a release leaves when nobody waits are kept, and the next
 * `tryAcquire` takes one at once.
 */
export class Semaphore {
  #permits: number;
  readonly #waiters: Waiter[] = [];

  constructor(permits = 0) {
    this.#permits = permits;
  }

  /** How many callers are blocked in {@link Semaphore.tryAcquire} or {@link Semaphore.acquire}. */
  get queueLength(): number {
    return this.#waiters.length;
  }

  /** Permits available now. */
  get availablePermits(): number {
    return this.#permits;
  }

  /** Takes a permit, waiting at most `timeout` ms; resolves whether it got one (0 ms: no wait). */
  tryAcquire(timeout = 0): Promise<boolean> {
    if (this.#permits > 0) {
      this.#permits--;
      return Promise.resolve(true);
    }
    if (timeout <= 0) return Promise.resolve(false);
    return this.#wait(timeout);
  }

  /** Takes a permit, waiting as long as it takes (until {@link Semaphore.interruptAll}). */
  acquire(): Promise<boolean> {
    if (this.#permits > 0) {
      this.#permits--;
      return Promise.resolve(true);
    }
    return this.#wait(Infinity);
  }

  /** Adds `permits`, each handed to the longest-blocked caller first, the rest kept. */
  release(permits = 1): void {
    for (let i = 0; i < permits; i++) {
      const waiter = this.#waiters.shift();
      if (waiter === undefined) this.#permits++;
      else waiter.grant(true);
    }
  }

  /** Ends every blocked call without a permit, as an interrupt would (used at shutdown). */
  interruptAll(): void {
    for (const waiter of this.#waiters.splice(0)) waiter.grant(false);
  }

  #wait(timeout: number): Promise<boolean> {
    return new Promise<boolean>((resolve) => {
      let timer: NodeJS.Timeout | undefined;
      const waiter: Waiter = {
        grant: (acquired) => {
          clearTimeout(timer);
          resolve(acquired);
        },
      };
      this.#waiters.push(waiter);
      if (Number.isFinite(timeout)) {
        timer = setTimeout(() => {
          const at = this.#waiters.indexOf(waiter);
          if (at >= 0) this.#waiters.splice(at, 1);
          resolve(false);
        }, timeout);
      }
    });
  }
}
