import { setTimeout as sleep } from 'node:timers/promises';
import { RedisUnavailableError } from '../errors/LockError.js';

/** How often a request that counts once per request id is sent at most: the first try and four more. */
export const ONCE_TRIES = 5;

/**
 * The pause before the n-th retry is n times this (ms): 100, 200, 300, 400, a second in all, so
 * that the tries outlast a connection that drops and comes back rather than all failing on it.
 */
const RETRY_STEP_MS = 100;

/** When {@link runOnce} may send a request again. */
export interface RunOnceLimits {
  /**
   * How long after the first send a retry may still go out, in ms: while a copy's deadline still
   * falls within the life of the first run's record (see `once()` in request-deadline.lua).
   */
  readonly window: number;
  /** `false` once the client is closing: no retry then. */
  open(): boolean;
}

/**
 * Runs `send` until it resolves; after `RedisUnavailableError` (an outcome not learned: the try
 * may have run, or may never have reached Redis, as node-redis rejects what it had written when
 * the connection drops) sends it again, at most {@link ONCE_TRIES} times in all, while within
 * `limits.window` of the first send and the client is open. Any other error ends it at once. Only
 * for a request whose script counts it once per request id, so that a try that did run makes the
 * next one answer its outcome.
 */
export async function runOnce<Reply>(send: () => Promise<Reply>, limits: RunOnceLimits): Promise<Reply> {
  const firstSentAt = performance.now();
  for (let tried = 1; ; tried++) {
    try {
      return await send();
    } catch (error) {
      const pause = tried * RETRY_STEP_MS;
      const inWindow = performance.now() + pause - firstSentAt <= limits.window;
      if (!(error instanceof RedisUnavailableError) || tried >= ONCE_TRIES || !inWindow || !limits.open()) throw error;
      await sleep(pause);
    }
  }
}

/**
 * Runs `send`, a release by hold id that nobody awaits (a give-back), until it lands: after
 * `RedisUnavailableError` it is sent again, with pauses doubling up to `longestPause` ms, for as
 * long as the client is open. A release by hold id changes nothing twice whenever it arrives (the
 * hold's mark is gone after its first run), so no window bounds it; what it gives back (permits,
 * a lock held for nobody) would otherwise stay taken. Any other error ends it at once. Its pauses
 * never keep the process alive.
 */
export async function runUntilLanded<Reply>(
  send: () => Promise<Reply>,
  limits: { readonly longestPause: number; open(): boolean },
): Promise<Reply> {
  for (let pause = RETRY_STEP_MS; ; pause = Math.min(pause * 2, limits.longestPause)) {
    try {
      return await send();
    } catch (error) {
      if (!(error instanceof RedisUnavailableError) || !limits.open()) throw error;
      await sleep(pause, undefined, { ref: false });
    }
  }
}
