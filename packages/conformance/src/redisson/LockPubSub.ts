import { PublishSubscribe } from './PublishSubscribe.js';
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
export class LockPubSub extends PublishSubscribe<LockEntry> {
  protected createEntry(channel: string, ready: Promise<void>): LockEntry {
    return new LockEntry(channel, ready);
  }

  protected onEntryMessage(entry: LockEntry, message: number): void {
    if (message === UNLOCK_MESSAGE) entry.latch.release(1);
    else if (message === READ_UNLOCK_MESSAGE) entry.latch.release(entry.latch.queueLength);
  }

  protected interrupt(entry: LockEntry): void {
    entry.latch.interruptAll();
  }
}
