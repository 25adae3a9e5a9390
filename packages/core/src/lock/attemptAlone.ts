import type { AcquireOptions } from './AcquireOptions.js';
import type { HeldLock } from './HeldLock.js';
import type { LockBase } from './LockBase.js';

/** The key of the method behind {@link attemptAlone}. Global, so that copies of `@deadbolt/core` serve each other's locks. */
export const ATTEMPT_ALONE: unique symbol = Symbol.for('@deadbolt/core.attemptAlone');

/**
 * A hold that one bare attempt took and that nobody keeps yet: no held lock, no watchdog and no
 * replica sync exist for it until it is kept. It lives for the attempt's lease unless given back.
 */
export interface UnkeptHold<Held extends HeldLock> {
  /**
   * Makes it a held lock, as `tryAcquire` would have returned: the watchdog keeps it from the
   * attempt's sending on, and replicas are waited for when the client syncs them.
   *
   * @throws `ClientClosedError` when the client closed meanwhile, `ReplicaSyncError` when
   *   replicas did not confirm; the hold is given back then
   */
  keep(): Promise<Held>;
  /** Releases it; never rejects (a hold that cannot be released expires with its lease). */
  giveBack(): Promise<void>;
}

/**
 * One attempt to take `lock` as `options.owner` (or a generated owner), with no wait and nothing
 * else: for lock groups that decide on many attempts at once and keep only what they need (a
 * RedLock's first round), so that a round that fails costs only its attempts. For lock group
 * authors.
 *
 * @returns the hold taken, to keep or give back; `null` when the lock is held by someone else
 * @throws `InvalidArgumentError` for bad options or an owner the kind refuses,
 *   `RedisUnavailableError` (a hold the request may have taken is given back), `ClientClosedError`
 */
export function attemptAlone<Held extends HeldLock>(
  lock: LockBase<Held, unknown>,
  options?: Omit<AcquireOptions, 'waitTime'>,
): Promise<UnkeptHold<Held> | null> {
  return lock[ATTEMPT_ALONE](options);
}
