import type { RedissonSubscriber } from './RedissonSubscriber.js';

/** What every pub/sub entry of {@link PublishSubscribe} has: Redisson's `PubSubEntry`. */
export interface PubSubEntry {
  /** The channel whose messages reach the entry. */
  readonly channel: string;
  /** Resolves once the channel is subscribed. */
  readonly ready: Promise<void>;
  /** How many waiting threads use the entry. */
  counter: number;
}

/**
 * Redisson's `PublishSubscribe<E>`, the base of its `LockPubSub`, `SemaphorePubSub` and `CountDownLatchPubSub`:
 * waiting threads join an entry by name, the first subscribes the entry's channel through the
 * peer's subscriber, the last to leave unsubscribes it, and each message of the channel (decoded
 * as a `Long`, as `LongCodec` does) is handed to the subclass with the entry.
 */
export abstract class PublishSubscribe<Entry extends PubSubEntry> {
  readonly #subscriber: RedissonSubscriber;
  readonly #sharded: boolean;
  readonly #byName = new Map<string, Entry>();

  /**
   * @param subscriber - the peer's subscriber connections
   * @param sharded - whether channels are subscribed with SSUBSCRIBE
   */
  constructor(subscriber: RedissonSubscriber, sharded: boolean) {
    this.#subscriber = subscriber;
    this.#sharded = sharded;
  }

  /** Joins (or creates and subscribes) the entry `entryName` on `channel`; resolves once subscribed. */
  async subscribe(entryName: string, channel: string): Promise<Entry> {
    const existing = this.#byName.get(entryName);
    const entry = existing ?? this.createEntry(channel, this.#subscriber.subscribe(channel, this.#sharded));
    if (existing === undefined) this.#byName.set(entryName, entry);
    entry.counter += 1;
    await entry.ready.catch((error: unknown) => {
      this.unsubscribe(entry, entryName);
      throw error;
    });
    return entry;
  }

  /** Leaves the entry; the last thread out unsubscribes its channel. */
  unsubscribe(entry: Entry, entryName: string): void {
    entry.counter -= 1;
    if (entry.counter > 0 || this.#byName.get(entryName) !== entry) return;
    this.#byName.delete(entryName);
    void this.#subscriber.unsubscribe(entry.channel);
  }

  /** Delivers a message from the subscriber connections to the entries on `channel`. */
  onMessage(channel: string, message: string): void {
    const value = Number(message);
    // LongCodec fails to decode anything else, and Redisson's listener never sees it.
    if (!Number.isSafeInteger(value)) return;
    for (const entry of this.#byName.values()) {
      if (entry.channel === channel) this.onEntryMessage(entry, value);
    }
  }

  /** Ends every blocked wait of every entry (shutdown). */
  interruptAll(): void {
    for (const entry of this.#byName.values()) this.interrupt(entry);
  }

  /** Redisson's `createEntry`: a new entry on `channel`, subscribed once `ready` resolves. */
  protected abstract createEntry(channel: string, ready: Promise<void>): Entry;

  /** Redisson's `onMessage(entry, message)`. */
  protected abstract onEntryMessage(entry: Entry, message: number): void;

  /** Ends the blocked waits of one entry without letting them through. */
  protected abstract interrupt(entry: Entry): void;
}
