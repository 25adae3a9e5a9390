import type { LockRuntime, WakeRule } from '@deadbolt/core/kit';

// Redisson's latch messages: `0` the count reached zero, `1` a count was set or the latch deleted.
// Either may change what every waiter should read, so each wakes them all.
const LATCH_WAKES: WakeRule = (message) => (message === '0' || message === '1' ? 'all' : undefined);

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
  const subscription = await runtime.join(wait.channel, LATCH_WAKES);
  try {
    for (;;) {
      signal?.throwIfAborted();
      // Below zero too: Redisson's await ends once the count is not positive.
      if ((await readCount(wait)) <= 0) return true;
      const remaining = deadline - performance.now();
      if (remaining <= 0) return false;
      await subscription.sleep(remaining, signal);
    }
  } finally {
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
