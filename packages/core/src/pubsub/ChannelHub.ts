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
   * missed. While it sleeps, `interruptible.interrupt()` wakes it too. `demand`: how many
   * permits this waiter wants, for a channel whose messages wake by permits (default 1).
   */
  sleep(timeout: number, signal?: AbortSignal, interruptible?: Interruptible, demand?: number): Promise<boolean>;
  /**
   * Hands a wake this waiter received but will not use (it leaves without the lock) to the next
   * local waiter, who would otherwise sleep through a release.
   */
  passWake(): void;
  /**
   * Whether no message can have gone unseen since `mark` was taken: the subscription was
   * confirmed then, and the channel has had no wake since. An attempt sent after the mark that
   * failed then needs no second try before the sleep: whatever frees the lock after it ran is
   * announced to this subscription.
   */
  missedNothingSince(mark: ChannelMark | undefined): boolean;
  /** Gives the share back; the last one out unsubscribes the channel (after a linger). Idempotent. */
  release(): void;
}

/**
 * What a subscribed channel had delivered at one moment (see `LockRuntime.channelMark`); only
 * the client that made it can read the rest.
 */
export interface ChannelMark {
  readonly channel: string;
}

/**
 * How long a channel stays subscribed after its last local waiter left, in milliseconds. Waits
 * on a busy lock come in runs: a waiter that joins within the linger costs no SUBSCRIBE, no
 * UNSUBSCRIBE and, with a mark taken before its first attempt, no second attempt. The server
 * keeps one subscription per channel that had a waiter in the last linger, whatever the number
 * of lock names, and sends it the releases of that time.
 */
export const CHANNEL_LINGER_MS = 250;

/**
 * One subscription per channel per executor, shared by every local waiter and reference
 * counted, kept for {@link CHANNEL_LINGER_MS} after the last one left. A message wakes one local
 * waiter, all of them, or those the permits it announces can serve, as the channel's `WakeRule`
 * says; a subscriber reconnect wakes everyone, because messages sent meanwhile are lost.
 */
export class ChannelHub {
  readonly #executor: Executor;
  readonly #sharded: () => Promise<boolean>;
  readonly #timeout: number;
  readonly #entries = new Map<string, ChannelEntry>();
  readonly #leaving = new Map<string, Promise<void>>();
  // The channels whose last waiter left, and the timers that unsubscribe them.
  readonly #lingering = new Map<string, NodeJS.Timeout>();
  readonly #marks = new WeakMap<ChannelMark, { readonly entry: ChannelEntry; readonly wakeCount: number }>();
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
    this.#stopLinger(channel);
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

  /**
   * What `channel` has delivered so far, when its subscription is confirmed (else `undefined`):
   * taken before an attempt, for `ChannelSubscription.missedNothingSince` after it.
   */
  mark(channel: string): ChannelMark | undefined {
    const entry = this.#entries.get(channel);
    if (!entry?.subscribed) return undefined;
    const mark: ChannelMark = { channel };
    this.#marks.set(mark, { entry, wakeCount: entry.wakeCount });
    return mark;
  }

  /** Delivers a message from the executor. */
  deliver(channel: string, message: string): void {
    const entry = this.#entries.get(channel);
    if (!entry) return;
    const wake = entry.wakes(message);
    if (wake === 'one') entry.wakeOne();
    else if (wake === 'all') entry.wakeAll();
    else if (wake !== undefined) entry.wakeServable(wake.permits);
  }

  /** Wakes every waiter on every channel, e.g. after the subscriber reconnected. */
  wakeEveryone(): void {
    for (const entry of this.#entries.values()) entry.wakeAll();
  }

  /** The channels with at least one local waiter (a lingering subscription has none). */
  get channels(): readonly string[] {
    return [...this.#entries].filter(([, entry]) => entry.refs > 0).map(([channel]) => channel);
  }

  /**
   * Ends every wait with `error`, refuses new ones, and gives every subscription back (lingering
   * ones too) before the executor closes: a driver may not close cleanly with channels subscribed
   * (GLIDE's cluster client then keeps its process alive). Resolves once they are given back, or
   * after the subscribe timeout.
   */
  async close(error: Error): Promise<void> {
    this.#closedWith = error;
    for (const timer of this.#lingering.values()) clearTimeout(timer);
    this.#lingering.clear();
    for (const [channel, entry] of this.#entries) {
      entry.fail(error);
      this.#unsubscribe(channel);
    }
    this.#entries.clear();
    let timer: NodeJS.Timeout | undefined;
    const timedOut = new Promise<void>((resolve) => (timer = setTimeout(resolve, this.#timeout)));
    await Promise.race([Promise.all(this.#leaving.values()), timedOut]);
    clearTimeout(timer);
  }

  #share(channel: string, entry: ChannelEntry): ChannelSubscription {
    let released = false;
    return {
      sleep: (timeout, signal, interruptible, demand) => entry.sleep(timeout, signal, interruptible, demand),
      passWake: () => entry.wakeOne(),
      missedNothingSince: (mark) => {
        const taken = mark && this.#marks.get(mark);
        return taken?.entry === entry && taken.wakeCount === entry.wakeCount;
      },
      release: () => {
        if (released) return;
        released = true;
        if (--entry.refs > 0 || this.#entries.get(channel) !== entry) return;
        entry.rest();
        const timer = setTimeout(() => {
          this.#lingering.delete(channel);
          if (entry.refs > 0 || this.#entries.get(channel) !== entry) return;
          this.#entries.delete(channel);
          this.#unsubscribe(channel);
        }, CHANNEL_LINGER_MS);
        // A lingering subscription never keeps the process alive.
        timer.unref();
        this.#lingering.set(channel, timer);
      },
    };
  }

  #stopLinger(channel: string): void {
    clearTimeout(this.#lingering.get(channel));
    this.#lingering.delete(channel);
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
