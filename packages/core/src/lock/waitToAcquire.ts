import type { LockClient } from '../client/LockClient.js';

/** Everything the wait loop needs from one lock kind. */
export interface AcquireLoop {
  /** The client whose pub/sub hub the waiter joins. */
  readonly client: LockClient;
  /** The channel a release of this lock is announced on. */
  readonly channel: string;
  /** How long to keep trying, in milliseconds; 0 for one attempt, `Infinity` for no limit. */
  readonly waitTime: number;
  readonly signal: AbortSignal | undefined;
  /**
   * One acquisition attempt. Resolves `null` when the lock was taken, else the lock's remaining
   * TTL in milliseconds (-1 when it never expires).
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
  const { client, signal } = loop;
  signal?.throwIfAborted();
  const deadline = performance.now() + loop.waitTime;
  if ((await loop.attempt()) === null) return taken(loop);
  if (loop.waitTime <= 0) return false;
  signal?.throwIfAborted();
  const subscription = await client.channels.join(loop.channel);
  let woken = false;
  let acquired = false;
  try {
    for (;;) {
      const ttl = await loop.attempt();
      if (ttl === null) return (acquired = await taken(loop));
      const remaining = deadline - performance.now();
      if (remaining <= 0) return false;
      woken = false;
      woken = await subscription.sleep(ttl >= 0 ? Math.min(ttl, remaining) : remaining, signal);
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
