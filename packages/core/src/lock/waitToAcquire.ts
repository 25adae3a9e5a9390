import type { ChannelSubscription } from '../pubsub/ChannelHub.js';

/** Everything the wait loop needs from one lock. */
export interface AcquireLoop {
  /** Joins the client's shared subscription of a channel. */
  join(channel: string): Promise<ChannelSubscription>;
  /** The channel a release of this lock is announced on. */
  readonly channel: string;
  /** How long to keep trying, in milliseconds; 0 for one attempt, `Infinity` for no limit. */
  readonly waitTime: number;
  readonly signal: AbortSignal | undefined;
  /**
   * One acquisition attempt. Resolves `null` when the lock was taken, else how long to sleep at
   * most before the next attempt, in milliseconds: the holder's remaining TTL (`Infinity` when it
   * never expires: then only a message or the end of the wait wakes the waiter).
   */
  attempt(): Promise<number | null>;
  /** Gives back an acquisition that succeeded after the wait was aborted. */
  undo(): Promise<void>;
}

/**
 * Tries to take a lock, and waits without polling while it is held elsewhere: after a failed
 * attempt it joins the lock's channel, tries again (so a release in between is not missed), then
 * sleeps until a release message, the holder's TTL or the end of the wait, and loops.
 * Resolves `true` when taken, `false` when the wait time ran out; rejects with the signal's
 * reason when aborted, leaving nothing behind.
 */
export async function waitToAcquire(loop: AcquireLoop): Promise<boolean> {
  const { signal } = loop;
  signal?.throwIfAborted();
  const deadline = performance.now() + loop.waitTime;
  if ((await loop.attempt()) === null) return taken(loop);
  if (loop.waitTime <= 0) return false;
  signal?.throwIfAborted();
  const subscription = await loop.join(loop.channel);
  let woken = false;
  let acquired = false;
  try {
    for (;;) {
      const ttl = await loop.attempt();
      if (ttl === null) return (acquired = await taken(loop));
      const remaining = deadline - performance.now();
      if (remaining <= 0) return false;
      woken = false;
      woken = await subscription.sleep(Math.min(ttl, remaining), signal);
    }
  } finally {
    // A waiter that was woken for a release and leaves without the lock passes the wake on.
    if (woken && !acquired) subscription.passWake();
    subscription.release();
  }
}

// An abort that raced a successful attempt still wins: the caller stopped waiting, so the lock
// goes back rather than being held by nobody who knows it.
async function taken(loop: AcquireLoop): Promise<true> {
  if (loop.signal?.aborted) {
    await loop.undo();
    loop.signal.throwIfAborted();
  }
  return true;
}
