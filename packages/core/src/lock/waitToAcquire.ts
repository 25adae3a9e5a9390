import type { Receiver } from '../handoff/HandoffReceiver.js';
import type { ChannelSubscription } from '../pubsub/ChannelHub.js';

/** Everything the wait loop needs from one lock. */
export interface AcquireLoop {
  /** Joins the client's shared subscription of a channel. */
  join(channel: string): Promise<ChannelSubscription>;
  /** The channel a release of this lock is announced on. */
  readonly channel: string;
  /**
   * What a first attempt made before the loop found: the holder's TTL (most acquisitions take the
   * lock at once, so the caller tries before it sets a wait up). The loop then goes on as if its
   * own first attempt had found that; absent, the loop makes the first attempt itself.
   */
  readonly firstTtl?: number | undefined;
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
  /** Told each time an attempt finds the lock held elsewhere (or the client holds off from it). */
  readonly onBusy?: (() => void) | undefined;
  /**
   * How long this client holds off from trying the lock for now, in milliseconds (see
   * `LocalHandoffs.beginStepBack`); absent, or 0, to try at once.
   */
  readonly holdOff?: (() => number) | undefined;
  /**
   * This waiter as a holder of the same client may pass it the lock while it sleeps (a local
   * hand-off); absent when the kind or the client does not hand off.
   */
  readonly receiver?: Receiver | undefined;
}

/**
 * Tries to take a lock, and waits without polling while it is held elsewhere: after a failed
 * attempt it joins the lock's channel, tries again (so a release in between is not missed), then
 * sleeps until a release message, the holder's TTL or the end of the wait, and loops. All the
 * while, a holder of the same client may pass it the lock instead (see `LocalHandoffs`), also
 * while an attempt is in flight.
 * Resolves `true` when taken, `false` when the wait time ran out; rejects with the signal's
 * reason when aborted, leaving nothing behind.
 */
export async function waitToAcquire(loop: AcquireLoop): Promise<boolean> {
  const { signal, receiver } = loop;
  signal?.throwIfAborted();
  const deadline = performance.now() + loop.waitTime;
  let subscription: ChannelSubscription | undefined;
  let woken = false;
  let acquired = false;
  receiver?.enlist();
  try {
    let { ttl, heldOff } =
      loop.firstTtl === undefined ? await attemptOrHoldOff(loop, deadline) : { ttl: loop.firstTtl, heldOff: false };
    for (;;) {
      // Passed the lock while the attempt was in flight: that counts too (and a second hold, when
      // the attempt also took it, is given back by the receiver).
      const passedMeanwhile = received(receiver);
      if (ttl === null || (passedMeanwhile && (await passedMeanwhile))) return (acquired = await taken(loop));
      loop.onBusy?.();
      if (loop.waitTime <= 0) return false;
      if (subscription) {
        const remaining = deadline - performance.now();
        if (remaining <= 0) return false;
        // A wake taken and then only held off on was not acted on: it is still this waiter's to
        // pass on, should the wait end before its next attempt.
        if (!heldOff) woken = false;
        woken = (await subscription.sleep(Math.min(ttl, remaining), signal, receiver)) || woken;
        const passed = received(receiver);
        if (passed) {
          // A sleep a local holder ended used up no release message.
          woken = false;
          if (await passed) return (acquired = await taken(loop));
        }
      } else {
        signal?.throwIfAborted();
        subscription = await loop.join(loop.channel);
      }
      ({ ttl, heldOff } = await attemptOrHoldOff(loop, deadline));
    }
  } finally {
    receiver?.close();
    // Passed the lock as the wait ended otherwise (aborted, closed, failed): it goes back. (Passed
    // a second hold after taking the lock: the receiver gave that one back.)
    const passed = received(receiver, false);
    if (passed && (await passed) && !acquired) await loop.undo();
    // A waiter that was woken for a release and leaves without the lock passes the wake on.
    if (woken && !acquired) subscription?.passWake();
    subscription?.release();
  }
}

// One attempt; or, while the client holds off from the lock and the wait lasts longer than that,
// none: how long to hold off, as if the lock were held that long.
async function attemptOrHoldOff(
  loop: AcquireLoop,
  deadline: number,
): Promise<{ ttl: number | null; heldOff: boolean }> {
  const holdOff = loop.holdOff?.() ?? 0;
  if (holdOff > 0 && performance.now() + holdOff < deadline) return { ttl: holdOff, heldOff: true };
  return { ttl: await loop.attempt(), heldOff: false };
}

// The outcome of a local holder's hand-off to `receiver` since it was last asked, which is taken
// (see `HandoffReceiver.collect`) whether or not it is awaited: `undefined` when there was none;
// resolves `false` when nothing passed (then, if `again`, the receiver is enlisted again: the
// claim took it off the list). Never rejects.
function received(receiver: Receiver | undefined, again = true): Promise<boolean> | undefined {
  return receiver?.collect()?.then((passed) => {
    if (!passed && again) receiver.enlist();
    return passed;
  });
}

async function taken(loop: AcquireLoop): Promise<true> {
  await abortWins(loop.signal, loop.undo);
  return true;
}

/**
 * An abort that raced a successful attempt still wins: the caller stopped waiting, so the lock
 * goes back (`undo`) rather than being held by nobody who knows it, and this rejects with the
 * signal's reason.
 */
export async function abortWins(signal: AbortSignal | undefined, undo: () => Promise<void>): Promise<void> {
  if (!signal?.aborted) return;
  await undo();
  signal.throwIfAborted();
}
