import { RedisUnavailableError } from '../errors/LockError.js';
import type { Executor } from '../executor/Executor.js';
import { ChannelEntry, type Interruptible } from './ChannelEntry.js';
import { LOCK_WAKES, type WakeRule } from './WakeRule.js';

/** A waiter's share of a channel subscription. */
export interface ChannelSubscription {
  /**
   * Sleeps until a message wakes this waiter, `timeout` ms pass, or `signal` aborts (then it
   * rejects with the signal's reason). A wake that arrived while the waiter was busy is kept
   * and consumed here at once, so a release between a failed attempt and the sleep is never
   * missed. While it sleeps, `interruptible.interrupt()` wakes it too.
   */
  sleep(timeout: number, signal?: AbortSignal, interruptible?: Interruptible): Promise<boolean>;
  /**
   * Hands a wake this waiter received but will not use (it leaves without the lock) to the next
   * local waiter, who would otherwise sleep through a release.
   */
  passWake(): void;
  /** Gives the share back; the last one out unsubscribes the channel. Idempotent. */
  release(): void;
}

/**
 * One subscription per channel per executor, shared by every local waiter and reference
 * counted. A message wakes one local waiter or all of them as the channel's `WakeRule`
 * says; a subscriber reconnect wakes everyone, because messages sent meanwhile are lost.
 */
export class ChannelHub {
  readonly #executor: Executor;
  readonly #sharded: () => Promise<boolean>;
  readonly #timeout: number;
  readonly #entries = new Map<string, ChannelEntry>();
  readonly #leaving = new Map<string, Promise<void>>();
  #closedWith: Error | undefined;

  /**
   * @param sharded - resolves whether channels use sharded pub/sub (`SSUBSCRIBE`)
   * @param timeout - how long a subscribe may take before it fails as Redis unavailable
   */
  constructor(executor: Executor, sharded: () => Promise<boolean>, timeout: number) {
    this.#executor = executor;
    this.#sharded = sharded;
    this.#timeout = timeout;
  }

  /**
   * Joins the channel's subscription, subscribing first when this is the only waiter. `wakes`
   * says what its messages mean (default: the locks' rule); every waiter of a channel waits for
   * the same kind of object, so the first one's rule stands.
   */
  async join(channel: string, wakes: WakeRule = LOCK_WAKES): Promise<ChannelSubscription> {
    this.#throwIfClosed();
    let entry = this.#entries.get(channel);
    if (!entry) {
      entry = new ChannelEntry(this.#subscribe(channel), wakes);
      this.#entries.set(channel, entry);
    }
    entry.refs++;
    try {
      await entry.ready;
    } catch (error) {
      if (this.#entries.get(channel) === entry) this.#entries.delete(channel);
      this.#throwIfClosed();
      throw error;
    }
    this.#throwIfClosed();
    return this.#share(channel, entry);
  }

  // A method, not an inline check: the hub may close while `join` awaits, and TypeScript would
  // keep a check made before the await narrowing the field after it.
  #throwIfClosed(): void {
    if (this.#closedWith) throw this.#closedWith;
  }

  /** Delivers a message from the executor. */
  deliver(channel: string, message: string): void {
    const entry = this.#entries.get(channel);
    if (!entry) return;
    const wake = entry.wakes(message);
    if (wake === 'one') entry.wakeOne();
    else if (wake === 'all') entry.wakeAll();
  }

  /** Wakes every waiter on every channel, e.g. after the subscriber reconnected. */
  wakeEveryone(): void {
    for (const entry of this.#entries.values()) entry.wakeAll();
  }

  /** The channels with at least one local waiter. */
  get channels(): readonly string[] {
    return [...this.#entries.keys()];
  }

  /** Ends every wait with `error` and refuses new ones; subscriptions are dropped with the executor. */
  close(error: Error): void {
    this.#closedWith = error;
    for (const entry of this.#entries.values()) entry.fail(error);
    this.#entries.clear();
  }

  #share(channel: string, entry: ChannelEntry): ChannelSubscription {
    let released = false;
    return {
      sleep: (timeout, signal, interruptible) => entry.sleep(timeout, signal, interruptible),
      passWake: () => entry.wakeOne(),
      release: () => {
        if (released) return;
        released = true;
        if (--entry.refs > 0 || this.#entries.get(channel) !== entry) return;
        this.#entries.delete(channel);
        this.#unsubscribe(channel);
      },
    };
  }

  // The timeout covers the whole way to a confirmed subscription: waiting for an unsubscribe of the
  // same channel still in flight and for the pub/sub mode too, or a join could hang past it.
  async #subscribe(channel: string): Promise<void> {
    let timer: NodeJS.Timeout | undefined;
    let gaveUp = false;
    const timedOut = new Promise<never>((_, reject) => {
      timer = setTimeout(() => {
        gaveUp = true;
        reject(
          new RedisUnavailableError(`Redis did not confirm the subscription to ${channel} within ${this.#timeout} ms`),
        );
      }, this.#timeout);
    });
    const subscribed = (async () => {
      await this.#leaving.get(channel);
      const sharded = await this.#sharded();
      // Given up while waiting: subscribing now would leave a subscription nobody listens to.
      if (!gaveUp) await this.#executor.subscribe(channel, sharded);
    })();
    try {
      await Promise.race([subscribed, timedOut]);
    } catch (error) {
      // A subscription confirmed after the timeout must not linger with nobody listening.
      this.#unsubscribe(channel);
      throw error instanceof RedisUnavailableError
        ? error
        : new RedisUnavailableError(`Could not subscribe to ${channel}`, { cause: error });
    } finally {
      clearTimeout(timer);
    }
  }

  #unsubscribe(channel: string): void {
    const leaving = this.#sharded()
      .then((sharded) => this.#executor.unsubscribe(channel, sharded))
      // The subscriber connection is gone or closing; nothing is left to undo on the server.
      .catch(() => undefined)
      .finally(() => {
        if (this.#leaving.get(channel) === leaving) this.#leaving.delete(channel);
      });
    this.#leaving.set(channel, leaving);
  }
}
