import { abortWins } from './giveBack.js';

/**
 * Sleeps up to `ms` between two attempts (the wait's end and the holder's TTL already cut it
 * short), `failed` attempts having failed so far; resolves a hold that came to the waiter while it
 * slept (a local hand-off), else `undefined`. Rejects with the signal's reason when aborted.
 */
export type Sleep<Hold> = (ms: number, failed: number) => Promise<Hold | undefined>;

/**
 * A wait that sets something up after its first failed attempt (joins a channel) and only then
 * knows how to sleep: the attempt after the set-up follows at once, so that a release in between
 * is not missed.
 */
export interface SetUpFirst<Hold> {
  setUp(): Promise<Sleep<Hold>>;
  /**
   * Asked after the set-up: whether nothing the attempt after it would look for can have changed
   * since the failed attempt (see `ChannelSubscription.missedNothingSince`); then the loop sleeps
   * at once. Absent, it always tries again.
   */
  readonly missedNothing?: (() => boolean) | undefined;
}

/**
 * One wait for a hold: what the lock's pub/sub wait, its polling wait and the channel wait of
 * other synchronizers differ in.
 *
 * @typeParam Hold - what a successful attempt returns
 */
export interface WaitLoop<Hold> {
  /** How long to keep trying, in milliseconds; 0 for one attempt, `Infinity` for no limit. */
  readonly waitTime: number;
  /** When the wait started, on the monotonic clock (`performance.now()`); default: when the loop starts. */
  readonly since?: number | undefined;
  readonly signal: AbortSignal | undefined;
  /**
   * What a first attempt made before the loop found: the holder's TTL (most acquisitions take the
   * lock at once, so the caller tries before it sets a wait up); absent, the loop makes it.
   */
  readonly first?: number | undefined;
  /**
   * One attempt: the hold taken, or how long to sleep at most before the next, in milliseconds
   * (the holder's TTL; `Infinity` when only a message or the end of the wait wakes the waiter).
   * `deadline` is when the wait ends, on the monotonic clock.
   */
  attempt(deadline: number): Promise<Hold | number>;
  /** How to sleep between attempts, or how to set the wait up first. */
  readonly sleeper: Sleep<Hold> | SetUpFirst<Hold>;
  /**
   * Gives back a hold an abort raced (see {@link abortWins}); absent, the caller does what an
   * abort after the last attempt calls for.
   */
  readonly giveBack?: ((hold: Hold) => Promise<void>) | undefined;
  /** Told each time an attempt finds the lock held elsewhere. */
  readonly onBusy?: (() => void) | undefined;
}

/**
 * The wait every acquisition shares: attempt, and while that fails, sleep (or set the wait up)
 * and attempt again, until a hold is taken or comes during a sleep, the wait time runs out or the
 * signal aborts.
 *
 * @returns the hold, or `undefined` when the wait time ran out; rejects with the signal's reason
 *   when aborted (an abort that races a successful attempt wins when `giveBack` is given), and
 *   with what an attempt, a set-up or a sleep throws
 */
export async function waitLoop<Hold extends object | true>(loop: WaitLoop<Hold>): Promise<Hold | undefined> {
  const { signal, waitTime } = loop;
  signal?.throwIfAborted();
  const deadline = (loop.since ?? performance.now()) + waitTime;
  let outcome = loop.first ?? (await loop.attempt(deadline));
  let sleeper = loop.sleeper;
  for (let failed = 1; ; failed++) {
    if (typeof outcome !== 'number') return taken(loop, outcome);
    loop.onBusy?.();
    if (waitTime <= 0) return undefined;
    if (typeof sleeper !== 'function') {
      signal?.throwIfAborted();
      const setUp = sleeper;
      sleeper = await setUp.setUp();
      if (!setUp.missedNothing?.()) {
        outcome = await loop.attempt(deadline);
        continue;
      }
    }
    const remaining = deadline - performance.now();
    if (remaining <= 0) return undefined;
    const came = await sleeper(Math.min(outcome, remaining), failed);
    if (came !== undefined) return taken(loop, came);
    outcome = await loop.attempt(deadline);
  }
}

async function taken<Hold>(loop: WaitLoop<Hold>, hold: Hold): Promise<Hold> {
  const { giveBack } = loop;
  if (giveBack) await abortWins(loop.signal, () => giveBack(hold));
  return hold;
}
