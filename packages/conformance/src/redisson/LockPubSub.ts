import type { RedissonSubscriber } from './RedissonSubscriber.js';
import { Semaphore } from './Semaphore.js';

/** `LockPubSub.UNLOCK_MESSAGE`: lets one waiting thread of the receiving client try again. */
export const UNLOCK_MESSAGE = 0;
/** `LockPubSub.READ_UNLOCK_MESSAGE`: lets every waiting thread of the receiving client try again. */
export const READ_UNLOCK_MESSAGE = 1;

/**
 * What Redisson's `RedissonLockEntry` is: the latch that the waiting threads of one client block
 * on for one subscription, and how many threads use it.
 */
export class LockEntry {
  /** Released by a message: one permit for {@link UNLOCK_MESSAGE}, one per blocked thread for {@link READ_UNLOCK_MESSAGE}. */
  readonly latch = new Semaphore(0);
  /** The threads subscribed through this entry. */
  counter = 0;

  /**
   * @param channel - the channel whose messages release the latch
   * @param ready - resolves once the channel is subscribed
   */
  constructor(
    readonly channel: string,
    readonly ready: Promise<void>,
  ) {}
}

/**
 * Redisson's `LockPubSub`: a thread that must wait subscribes under an entry name (one entry per
 * lock for the reentrant and read-write locks, one per thread for the fair lock); the first
 * subscribes the channel, the last to leave unsubscribes it. Messages release the entry's latch.
 */
export class LockPubSub {
  readonly #subscriber: RedissonSubscriber;
  readonly #sharded: boolean;
  readonly #entries = new Map<string, LockEntry>();

  /**
   * @param subscriber - the peer's subscriber connections
   * @param sharded - whether channels are subscribed with SSUBSCRIBE
   */
  constructor(subscriber: RedissonSubscriber, sharded: boolean) {
    this.#subscriber = subscriber;
    this.#sharded = sharded;
  }

  /** Joins (or creates and subscribes) the entry `entryName` on `channel`; resolves once subscribed. */
  async subscribe(entryName: string, channel: string): Promise<LockEntry> {
    let entry = this.#entries.get(entryName);
    if (entry === undefined) {
      entry = new LockEntry(channel, this.#subscriber.subscribe(channel, this.#sharded));
      this.#entries.set(entryName, entry);
    }
    entry.counter++;
    try {
      await entry.ready;
    } catch (error) {
      this.unsubscribe(entry, entryName);
      throw error;
    }
    return entry;
  }

  /** Leaves the entry; the last thread out unsubscribes its channel. */
  unsubscribe(entry: LockEntry, entryName: string): void {
    if (--entry.counter > 0 || this.#entries.get(entryName) !== entry) return;
    this.#entries.delete(entryName);
    void this.#subscriber.unsubscribe(entry.channel);
  }

  /** Delivers a message from the subscriber connections. */
  onMessage(channel: string, message: string): void {
    for (const entry of this.#entries.values()) {
      if (entry.channel !== channel) continue;
      if (Number(message) === UNLOCK_MESSAGE) entry.latch.release(1);
      else if (Number(message) === READ_UNLOCK_MESSAGE) entry.latch.release(entry.latch.queueLength);
    }
  }

  /** Ends every blocked wait without a permit (shutdown). */
  interruptAll(): void {
    for (const entry of this.#entries.values()) entry.latch.interruptAll();
  }
}
