import { LOCK_WAKES, type WakeRule } from './WakeRule.js';

// setTimeout fires at once for delays past 2^31 - 1 ms.
const MAX_TIMER = 2 ** 31 - 1;

/** A waiter whose sleep something else may end early: `ChannelSubscription.sleep` sets `interrupt` while it sleeps. */
export interface Interruptible {
  interrupt: (() => void) | undefined;
}

interface Sleeper {
  /** How many permits it waits for (see `wakeServable`); 1 for a lock's waiter. */
  readonly demand: number;
  wake: () => void;
  timeOut: () => void;
  fail: (error: unknown) => void;
}

/**
 * The local waiters of one subscribed channel. Wakes that find nobody asleep are kept as
 * permits (at most one per waiter), so that a waiter who was busy retrying when the message
 * came does not sleep through it.
 */
export class ChannelEntry {
  refs = 0;
  readonly ready: Promise<void>;
  /** Whether the subscription was confirmed: from then on, no message published reaches it unseen. */
  subscribed = false;
  /** How many wakes (messages, reconnects, passed wakes) the channel has had: see `ChannelHub.mark`. */
  wakeCount = 0;
  #permits = 0;
  readonly #sleepers: Sleeper[] = [];
  #failed: { error: unknown } | undefined;

  /** What the channel's messages mean to its waiters. */
  readonly wakes: WakeRule;

  /**
   * @param ready - settles when the subscription is in place (or could not be made)
   * @param wakes - what the channel's messages mean (default: the locks' rule)
   */
  constructor(ready: Promise<void>, wakes: WakeRule = LOCK_WAKES) {
    this.ready = ready;
    this.wakes = wakes;
    // Rejections are observed by every joiner; this keeps an unjoined failure from going unhandled.
    ready.then(
      () => (this.subscribed = true),
      () => undefined,
    );
  }

  /** The last waiter left: wakes kept for waiters are for nobody now. */
  rest(): void {
    this.#permits = 0;
  }

  wakeOne(): void {
    this.wakeCount++;
    const sleeper = this.#sleepers.shift();
    if (sleeper) sleeper.wake();
    else this.#permits = Math.min(this.#permits + 1, this.refs);
  }

  wakeAll(): void {
    this.#wake([...this.#sleepers]);
  }

  /**
   * Wakes the sleepers that `permits` can serve, in the order they fell asleep: one that asks for
   * more than is left is passed over (its attempt could not succeed; a later release announces
   * itself again), the ones after it may still fit.
   */
  wakeServable(permits: number): void {
    let left = permits;
    const served = this.#sleepers.filter((sleeper) => {
      if (sleeper.demand > left) return false;
      left -= sleeper.demand;
      return true;
    });
    this.#wake(served);
  }

  // Wakes `sleepers` (each leaves the list as it wakes); those busy trying, who missed the
  // message, each get a wake kept, as any of them may be one it was for.
  #wake(sleepers: readonly Sleeper[]): void {
    this.wakeCount++;
    this.#permits = Math.max(this.#permits, this.refs - this.#sleepers.length);
    for (const sleeper of sleepers) sleeper.wake();
  }

  fail(error: unknown): void {
    this.#failed = { error };
    for (const sleeper of this.#sleepers.splice(0)) sleeper.fail(error);
  }

  /**
   * Resolves `true` when woken (by a message, a kept wake, or `sleeper.interrupt()`), `false` when
   * `timeout` passed. `demand`: how many permits the sleeper waits for (see `wakeServable`).
   */
  sleep(timeout: number, signal?: AbortSignal, interruptible?: Interruptible, demand = 1): Promise<boolean> {
    if (this.#failed) return Promise.reject(this.#failed.error);
    if (signal?.aborted) return Promise.reject(signal.reason);
    if (this.#permits > 0) {
      this.#permits--;
      return Promise.resolve(true);
    }
    return new Promise<boolean>((resolve, reject) => {
      const settle = () => {
        clearTimeout(timer);
        if (interruptible) interruptible.interrupt = undefined;
        signal?.removeEventListener('abort', onAbort);
        const index = this.#sleepers.indexOf(sleeper);
        if (index !== -1) this.#sleepers.splice(index, 1);
      };
      const sleeper: Sleeper = {
        demand,
        wake: () => {
          settle();
          resolve(true);
        },
        timeOut: () => {
          settle();
          resolve(false);
        },
        fail: (error) => {
          settle();
          reject(error);
        },
      };
      const onAbort = () => sleeper.fail(signal?.reason);
      const timer =
        timeout === Infinity ? undefined : setTimeout(sleeper.timeOut, Math.min(Math.max(timeout, 0), MAX_TIMER));
      signal?.addEventListener('abort', onAbort, { once: true });
      if (interruptible) interruptible.interrupt = sleeper.wake;
      this.#sleepers.push(sleeper);
    });
  }
}
