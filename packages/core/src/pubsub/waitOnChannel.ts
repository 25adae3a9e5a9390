import type { LockRuntime } from '../runtime/LockRuntime.js';
import { waitLoop, type Sleep } from '../lock/acquisition/waitLoop.js';
import type { ChannelSubscription } from './ChannelHub.js';
import type { WakeRule } from './WakeRule.js';

/** What one wait on a channel needs: see {@link waitOnChannel}. */
export interface ChannelWait {
  readonly runtime: LockRuntime;
  /** The channel whose messages announce a change worth checking again. */
  readonly channel: string;
  /** What the channel's messages mean to its waiters. */
  readonly wakes: WakeRule;
  /** How long to wait at most, in milliseconds; `Infinity` for no limit. */
  readonly waitTime: number;
  readonly signal: AbortSignal | undefined;
  /** Checks once (reads a count, tries to take permits): `true` ends the wait. */
  check(): Promise<boolean>;
  /**
   * Checks once before joining the channel, and joins only when that check fails and the wait
   * time is not 0: for a check that usually holds at once (taking permits that are free).
   */
  readonly checkBeforeJoining?: boolean;
  /** How many permits the waiter wants, for a channel whose messages wake by permits (default 1). */
  readonly demand?: number | undefined;
}

/**
 * Waits without polling until `check` holds: joins the channel through the client's shared
 * subscription, checks (so a change between the two is not missed), then sleeps until a message
 * or the end of the wait, and loops (`waitLoop`, as locks do). Resolves `true` once `check`
 * held, `false` when the wait time ran out; rejects with the signal's reason when aborted, and with `ClientClosedError` when the
 * client closes (also when a check fails because of it). Leaves nothing behind: a wake this
 * waiter took and did not use passes to the next local waiter, and the channel is given back.
 * For synchronizers other than locks (a semaphore, a latch).
 */
export async function waitOnChannel(wait: ChannelWait): Promise<boolean> {
  const { runtime, signal } = wait;
  const since = performance.now();
  signal?.throwIfAborted();
  let subscription: ChannelSubscription | undefined;
  // A wake this waiter took and has not answered with a check that held.
  let woken = false;
  let held = false;
  const sleepOn =
    (joined: ChannelSubscription): Sleep<true> =>
    async (ms) => {
      woken = false;
      woken = await joined.sleep(ms, signal, undefined, wait.demand);
      return undefined;
    };
  const join = async () => (subscription = await runtime.join(wait.channel, wait.wakes));
  // Taken before the first check: when the channel was subscribed then and has had no message
  // since, the check after joining could find nothing new, and is left out.
  const mark = wait.checkBeforeJoining ? runtime.channelMark(wait.channel) : undefined;
  try {
    held =
      (await waitLoop<true>({
        waitTime: wait.waitTime,
        since,
        signal,
        attempt: async () => {
          signal?.throwIfAborted();
          return (await checkOnce(wait)) || Infinity;
        },
        sleeper: wait.checkBeforeJoining
          ? {
              setUp: async () => sleepOn(await join()),
              missedNothing: () => subscription?.missedNothingSince(mark) === true,
            }
          : sleepOn(await join()),
      })) !== undefined;
    return held;
  } finally {
    if (woken && !held) subscription?.passWake();
    subscription?.release();
  }
}

// A check that fails because the client is closing reports the close, not the driver's error.
async function checkOnce(wait: ChannelWait): Promise<boolean> {
  try {
    return await wait.check();
  } catch (error) {
    wait.runtime.assertOpen();
    throw error;
  }
}
