import { checkOwnerInUse } from '../owner/generatedOwners.js';
import { checkDuration, checkOptions, checkOwner, checkSignal } from '../options/validate.js';

/** Options of an acquisition. Every time is in milliseconds. */
export interface AcquireOptions {
  /**
   * Hold the lock for this long at most; no watchdog renews it. Without it the lock is held
   * until released, kept alive by the watchdog (Redisson's `leaseTime = -1`).
   */
  leaseTime?: number;
  /**
   * Give up after waiting this long. `acquire` then throws `LockWaitTimeoutError`, `tryAcquire`
   * returns `null`. Default: `Infinity` for `acquire` and `withLock`, 0 for `tryAcquire`.
   */
  waitTime?: number;
  /** Aborts the wait; the promise rejects with the signal's reason and nothing is left behind. */
  signal?: AbortSignal;
  /**
   * Acquire as this owner instead of a fresh one (or the enclosing `withLock` scope's). The same
   * owner re-enters the lock; only it can release it. Any non-empty string without whitespace
   * that does not start with `#`: ids starting with `#` are the ones Deadbolt generates, accepted
   * only while that generated owner holds something (passing a held lock's `owner` back joins
   * its holds on purpose), so a name you make up never joins a generated owner by accident.
   */
  owner?: string;
}

/** {@link AcquireOptions} after validation, with the wait time's default applied. */
export interface CheckedAcquireOptions {
  readonly leaseTime: number | undefined;
  readonly waitTime: number;
  readonly signal: AbortSignal | undefined;
  readonly owner: string | undefined;
}

const KNOWN = ['leaseTime', 'waitTime', 'signal', 'owner'] as const;

/** Validates acquisition options; throws `InvalidArgumentError` naming the bad one. */
export function checkAcquireOptions(value: unknown, defaultWaitTime: number): CheckedAcquireOptions {
  const options = checkOptions<AcquireOptions>(value, KNOWN);
  return {
    leaseTime:
      options.leaseTime === undefined ? undefined : checkDuration(options.leaseTime, 'options.leaseTime', { min: 1 }),
    waitTime:
      options.waitTime === undefined
        ? defaultWaitTime
        : checkDuration(options.waitTime, 'options.waitTime', { allowInfinity: true }),
    signal: checkSignal(options.signal),
    owner: options.owner === undefined ? undefined : checkOwnerInUse(checkOwner(options.owner), 'options.owner'),
  };
}
