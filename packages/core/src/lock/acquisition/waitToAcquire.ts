import type { Passed, Receiver } from '../../handoff/HandoffReceiver.js';
import type { ChannelMark, ChannelSubscription } from '../../pubsub/ChannelHub.js';
import { waitLoop } from './waitLoop.js';

/** Everything the pub/sub wait of a lock needs from one acquisition. */
export interface AcquireLoop<Grant> {
  /** Joins the client's shared subscription of a channel. */
  join(channel: string): Promise<ChannelSubscription>;
  /** The channel a release of this lock is announced on. */
  readonly channel: string;
  /** What a first attempt made before the wait found: the holder's TTL (see `WaitLoop.first`). */
  readonly firstTtl?: number | undefined;
  /**
   * What the channel had delivered when that first attempt was sent (see `ChannelHub.mark`):
   * when nothing came since, the wait sleeps at once after joining, with no second attempt.
   */
  readonly firstMark?: ChannelMark | undefined;
  /** How long to keep trying, in milliseconds; 0 for one attempt, `Infinity` for no limit. */
  readonly waitTime: number;
  readonly signal: AbortSignal | undefined;
  /**
   * One acquisition attempt: the hold taken, else how long to sleep at most before the next
   * attempt, in milliseconds: the holder's remaining TTL (`Infinity` when it never expires: then
   * only a message or the end of the wait wakes the waiter).
   */
  attempt(): Promise<Passed<Grant> | number>;
  /** Gives back a hold nobody will keep (an abort raced it, or it was a second one). */
  giveBack: (hold: Passed<Grant>) => Promise<void>;
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
  readonly receiver?: Receiver<Grant> | undefined;
}

/**
 * Tries to take a lock, and waits without polling while it is held elsewhere: after a failed
 * attempt it joins the lock's channel, tries again (so a release in between is not missed; unless
 * the channel was subscribed before that attempt and has had no message since), then
 * sleeps until a release message, the holder's TTL or the end of the wait, and loops (see
 * {@link waitLoop}). All the while, a holder of the same client may pass it the lock instead (see
 * `LocalHandoffs`), also while an attempt is in flight.
 *
 * @returns the hold taken or passed, or `undefined` when the wait time ran out; rejects with the
 *   signal's reason when aborted, leaving nothing behind
 */
export async function waitToAcquire<Grant>(loop: AcquireLoop<Grant>): Promise<Passed<Grant> | undefined> {
  const { signal, receiver } = loop;
  signal?.throwIfAborted();
  let subscription: ChannelSubscription | undefined;
  // A wake this waiter took and has not acted on: it passes it on should it leave without the lock.
  let woken = false;
  // Whether the last "attempt" was only a hold-off: a wake taken then was not acted on.
  let heldOff = false;
  let acquired = false;
  receiver?.enlist();
  try {
    const hold = await waitLoop<Passed<Grant>>({
      waitTime: loop.waitTime,
      signal,
      first: loop.firstTtl,
      giveBack: loop.giveBack,
      onBusy: loop.onBusy,
      attempt: async (deadline) => {
        // While the client holds off from the lock and the wait lasts longer than that, no
        // attempt: the lock counts as held that long.
        const holdOff = loop.holdOff?.() ?? 0;
        heldOff = holdOff > 0 && performance.now() + holdOff < deadline;
        return passedMeanwhile(loop, heldOff ? holdOff : await loop.attempt());
      },
      sleeper: {
        setUp: async () => {
          const joined = await loop.join(loop.channel);
          subscription = joined;
          return async (ms) => {
            if (!heldOff) woken = false;
            // A holder of this client passed the lock (or tried to) before the sleep began: no sleep.
            const passedBefore = received(receiver);
            if (passedBefore) return (await passedBefore) ?? undefined;
            woken = (await joined.sleep(ms, signal, receiver)) || woken;
            const passed = received(receiver);
            if (!passed) return undefined;
            // A sleep a local holder ended used up no release message.
            woken = false;
            return (await passed) ?? undefined;
          };
        },
        missedNothing: () => subscription?.missedNothingSince(loop.firstMark) === true,
      },
    });
    acquired = hold !== undefined;
    return hold;
  } finally {
    receiver?.close();
    // Passed the lock as the wait ended otherwise (aborted, closed, failed), or a second time
    // after taking it: that hold goes back.
    const late = received(receiver, false);
    const passed = late && (await late);
    if (passed) {
      if (acquired) void loop.giveBack(passed);
      else await loop.giveBack(passed);
    }
    // A waiter that was woken for a release and leaves without the lock passes the wake on.
    if (woken && !acquired) subscription?.passWake();
    subscription?.release();
  }
}

// Passed the lock while the attempt was in flight: that counts too. When the attempt took it as
// well, one hold is enough: the pass goes back.
async function passedMeanwhile<Grant>(
  loop: AcquireLoop<Grant>,
  outcome: Passed<Grant> | number,
): Promise<Passed<Grant> | number> {
  const passed = received(loop.receiver);
  if (!passed) return outcome;
  if (typeof outcome === 'object') {
    void passed.then((second) => second && loop.giveBack(second));
    return outcome;
  }
  return (await passed) ?? outcome;
}

// The outcome of a local holder's hand-off to `receiver` since it was last asked, which is taken
// (see `HandoffReceiver.collect`) whether or not it is awaited: `undefined` when there was none;
// resolves `null` when nothing passed (then, if `again`, the receiver is enlisted again: the claim
// took it off the list). Never rejects.
function received<Grant>(
  receiver: Receiver<Grant> | undefined,
  again = true,
): Promise<Passed<Grant> | null> | undefined {
  return receiver?.collect()?.then((passed) => {
    if (!passed && again) receiver.enlist();
    return passed;
  });
}
