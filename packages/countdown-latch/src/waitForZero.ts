import type { LockRuntime } from '@deadbolt/core/kit';

/** What one wait for a latch to open needs. */
export interface ZeroWait {
  readonly runtime: LockRuntime;
  /** The latch's channel, `redisson_countdownlatch__channel__{name}`. */
  readonly channel: string;
  /** How long to wait at most, in milliseconds; `Infinity` for no limit. */
  readonly waitTime: number;
  readonly signal: AbortSignal | undefined;
  /** Reads the latch's count. */
  count(): Promise<number>;
}

/**
 * Waits without polling until a latch's count is zero: joins the latch's channel through the
 * client's shared subscription, then reads the count (so a countdown between the two is not
 * missed), then sleeps until a message or the end of the wait, and loops. Resolves `true` when
 * the count was read as zero, `false` when the wait time ran out; rejects with the signal's reason
 * when aborted and with `ClientClosedError` when the client closes. Leaves nothing behind: the
 * channel is given back whichever way the wait ends.
 */
export async function waitForZero(wait: ZeroWait): Promise<boolean> {
  const { runtime, signal } = wait;
  const deadline = performance.now() + wait.waitTime;
  const subscription = await runtime.join(wait.channel);
  // A wake this waiter took and has not yet answered by reading the count and sleeping again.
  let woken = false;
  try {
    for (;;) {
      signal?.throwIfAborted();
      // Below zero too: Redisson's await ends once the count is not positive.
      if ((await readCount(wait)) <= 0) return true;
      const remaining = deadline - performance.now();
      if (remaining <= 0) return false;
      woken = false;
      woken = await subscription.sleep(remaining, signal);
    }
  } finally {
    // Redisson's "count reached zero" message is `0`, which a shared subscription delivers to one
    // local waiter only (for a lock, one waiter can take it). Every waiter that leaves after a
    // wake passes it on, so each waiter of this client on the latch gets to read the count.
    if (woken) subscription.passWake();
    subscription.release();
  }
}

// A read that fails because the client is closing reports the close, not the driver's error.
async function readCount(wait: ZeroWait): Promise<number> {
  try {
    return await wait.count();
  } catch (error) {
    wait.runtime.assertOpen();
    throw error;
  }
}
