import { LockEntry } from './LockPubSub.js';
import { PublishSubscribe } from './PublishSubscribe.js';

/**
 * Redisson's `SemaphorePubSub`: the threads of one client that wait on one semaphore share a
 * {@link LockEntry} (entry name: the semaphore's name), and a message, the permits available
 * after a change, lets as many of them try again as it names, at most as many as are subscribed.
 * Permits of the latch that nobody takes stay, so a thread that blocks later tries again at once.
 */
export class SemaphorePubSub extends PublishSubscribe<LockEntry> {
  protected override createEntry(channel: string, ready: Promise<void>): LockEntry {
    return new LockEntry(channel, ready);
  }

  protected override onEntryMessage(entry: LockEntry, message: number): void {
    // Zero or fewer permits (an addPermits that took some away) let nobody through.
    const wakes = Math.min(entry.counter, message);
    if (wakes > 0) entry.latch.release(wakes);
  }

  protected override interrupt(entry: LockEntry): void {
    entry.latch.interruptAll();
  }
}
