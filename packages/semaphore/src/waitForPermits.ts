import type { LockRuntime } from '@deadbolt/core/kit';
import { SEMAPHORE_WAKES } from './semaphoreKeys.js';

/** What one wait for permits needs. */
export interface PermitWait {
  readonly runtime: LockRuntime;
  /** The semaphore's channel, `redisson_sc:{name}`. */
  readonly channel: string;
  /** How long to wait at most after the first attempt, in milliseconds; `Infinity` for no limit. */
  readonly waitTime: number;
  readonly signal: AbortSignal | undefined;
  /** One attempt to take every permit asked for at once: `true` when taken. */
  attempt(): Promise<boolean>;
}

/**
 * Takes permits, waiting without polling while too few are available: after a failed attempt it
 * joins the semaphore's channel, tries again (so a release in between is not missed), then sleeps
 * until a release announces permits or the wait ends, and loops. Resolves `true` when taken,
 * `false` when the wait time ran out; rejects with the signal's reason when aborted and with
 * `ClientClosedError` when the client closes. The channel is given back however the wait ends.
 */
export async function waitForPermits(wait: PermitWait): Promise<boolean> {
  const { runtime, signal } = wait;
  const deadline = performance.now() + wait.waitTime;
  if (await attempt(wait)) return true;
  if (wait.waitTime <= 0) return false;
  signal?.throwIfAborted();
  const subscription = await runtime.join(wait.channel, SEMAPHORE_WAKES);
  // A wake this waiter took and has not answered with an attempt that got the permits.
  let woken = false;
  let taken = false;
  try {
    for (;;) {
      if ((taken = await attempt(wait))) return true;
      const remaining = deadline - performance.now();
      if (remaining <= 0) return false;
      woken = false;
      woken = await subscription.sleep(remaining, signal);
    }
  } finally {
    // Every waiter of this client is woken by a release, but a wake that arrived while this one
    // was busy is kept for one waiter only: leaving without permits, it passes that on.
    if (woken && !taken) subscription.passWake();
    subscription.release();
  }
}

// An attempt that fails because the client is closing reports the close, not the driver's error.
async function attempt(wait: PermitWait): Promise<boolean> {
  wait.signal?.throwIfAborted();
  try {
    return await wait.attempt();
  } catch (error) {
    wait.runtime.assertOpen();
    throw error;
  }
}
