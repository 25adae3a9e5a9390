import { waitOnChannel, type LockRuntime } from '@deadbolt/core/kit';
import type { ExpirableAcquireReply } from './commands/expirableTryAcquire.js';
import { EXPIRABLE_SEMAPHORE_WAKES } from './semaphoreKeys.js';

/** What one wait for permits of a permit-expirable semaphore needs: see {@link waitForPermits}. */
export interface PermitWait {
  readonly runtime: LockRuntime;
  /** The semaphore's channel, `redisson_sc:{name}`. */
  readonly channel: string;
  /** How long to wait at most, in milliseconds; `Infinity` for no limit. */
  readonly waitTime: number;
  readonly signal: AbortSignal | undefined;
  /** Tries once to take the permits. */
  attempt(): Promise<ExpirableAcquireReply>;
}

// A timer may fire a millisecond before the lease it waits for has ended on the wall clock.
const EXPIRY_MARGIN = 1;

/**
 * Waits without polling until an attempt takes the permits: tries once, then waits on the
 * semaphore's channel (kit's `waitOnChannel`: join, try, sleep until a message) and also until
 * the earliest held permit's lease ends, when nobody announces anything and only trying again
 * reclaims it. Each round of `waitOnChannel` is bounded by that time; a round ends early when an
 * attempt learns of a permit that expires sooner, and starts again with the new bound.
 *
 * @returns `true` once taken, `false` when the wait time ran out; rejects as `waitOnChannel` does
 */
export async function waitForPermits(wait: PermitWait): Promise<boolean> {
  const { runtime, channel, signal } = wait;
  const deadline = performance.now() + wait.waitTime;
  signal?.throwIfAborted();
  let reply = await attemptOnce(wait);
  while (!reply.taken) {
    const remaining = deadline - performance.now();
    if (remaining <= 0) return false;
    const bound = reply.expiresAt ?? Infinity;
    let sooner = false;
    const check = async () => {
      reply = await wait.attempt();
      if (reply.taken) return true;
      return (sooner = reply.expiresAt !== undefined && reply.expiresAt < bound);
    };
    const untilExpiry = bound - Date.now() + EXPIRY_MARGIN;
    const ended = await waitOnChannel({
      runtime,
      channel,
      wakes: EXPIRABLE_SEMAPHORE_WAKES,
      waitTime: Math.max(0, Math.min(remaining, untilExpiry)),
      signal,
      check,
    });
    if (ended || sooner) continue;
    // The round ran out: the wait is over, or a lease has ended and trying again reclaims it.
    if (performance.now() >= deadline) return false;
    signal?.throwIfAborted();
    reply = await attemptOnce(wait);
  }
  return true;
}

// An attempt outside `waitOnChannel` that fails because the client is closing reports the close,
// not the driver's error, as the attempts inside it do.
async function attemptOnce(wait: PermitWait): Promise<ExpirableAcquireReply> {
  try {
    return await wait.attempt();
  } catch (error) {
    wait.runtime.assertOpen();
    throw error;
  }
}
