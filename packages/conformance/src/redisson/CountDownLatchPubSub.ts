import { PublishSubscribe, type PubSubEntry } from './PublishSubscribe.js';
import { ReclosableLatch } from './ReclosableLatch.js';

/** `CountDownLatchPubSub.ZERO_COUNT_MESSAGE`: the count reached zero; opens the gate. */
export const ZERO_COUNT_MESSAGE = 0;
/** `CountDownLatchPubSub.NEW_COUNT_MESSAGE`: a count was set (or the latch deleted); closes the gate. */
export const NEW_COUNT_MESSAGE = 1;

/**
 * Redisson's `RedissonCountDownLatchEntry`: the gate that the waiting threads of one client block
 * on for one latch, and how many threads use it. A new entry's gate is closed.
 */
export class CountDownLatchEntry implements PubSubEntry {
  /** Opened by {@link ZERO_COUNT_MESSAGE}, closed by {@link NEW_COUNT_MESSAGE}. */
  readonly latch = new ReclosableLatch();
  counter = 0;

  /**
   * @param channel - the channel whose messages open and close the gate
   * @param ready - resolves once the channel is subscribed
   */
  constructor(
    readonly channel: string,
    readonly ready: Promise<void>,
  ) {}
}

/**
 * Redisson's `CountDownLatchPubSub`: one entry per client and latch (entry name: the client id
 * followed by the latch's name); message `0` opens its gate, `1` closes it, anything else does
 * nothing.
 */
export class CountDownLatchPubSub extends PublishSubscribe<CountDownLatchEntry> {
  protected override createEntry(channel: string, ready: Promise<void>): CountDownLatchEntry {
    return new CountDownLatchEntry(channel, ready);
  }

  protected override onEntryMessage(entry: CountDownLatchEntry, message: number): void {
    if (message === ZERO_COUNT_MESSAGE) entry.latch.open();
    if (message === NEW_COUNT_MESSAGE) entry.latch.close();
  }

  protected override interrupt(entry: CountDownLatchEntry): void {
    entry.latch.interruptAll();
  }
}
