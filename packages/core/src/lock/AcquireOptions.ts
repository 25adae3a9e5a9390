import { InvalidArgumentError } from '../errors/LockError.js';
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
   * For a hold the watchdog keeps (no `leaseTime`): the longest it may last. The watchdog stops
   * renewing in time for the lock's lease to end at most this long after the acquire, and the
   * signal aborts with a `LockLostError` (reason `maxHoldTimeReached`) before the lease ends in
   * Redis: a holder that is alive but stuck loses the lock to the next one. An `extend` with
   * `stopWatchdog` sets a lease of its own instead. Not with `leaseTime`, which is a limit already.
   */
  maxHoldTime?: number;
  /**
   * Give up after waiting this long. `acquire` then throws `LockWaitTimeoutError`, `tryAcquire`
   * returns `null`. Default: for `acquire` and `withLock`, the client's `defaultWaitTime`
   * (without it `Infinity`: wait until acquired); 0 for `tryAcquire`.
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
  readonly maxHoldTime: number | undefined;
  readonly waitTime: number;
  readonly signal: AbortSignal | undefined;
  readonly owner: string | undefined;
}

const KNOWN = ['leaseTime', 'maxHoldTime', 'waitTime', 'signal', 'owner'] as const;

/**
 * Validates acquisition options; throws `InvalidArgumentError` naming the bad one.
 *
 * @param defaultWaitTime - the wait when none is given: the client's `defaultWaitTime` (see
 *   `acquireWaitTime`) for `acquire` and `withLock`, 0 for `tryAcquire`
 */
export function checkAcquireOptions(value: unknown, defaultWaitTime: number): CheckedAcquireOptions {
  const options = checkOptions<AcquireOptions>(value, KNOWN);
  const leaseTime =
    options.leaseTime === undefined ? undefined : checkDuration(options.leaseTime, 'options.leaseTime', { min: 1 });
  return {
    leaseTime,
    maxHoldTime: checkMaxHoldTime(options.maxHoldTime, leaseTime),
    waitTime:
      options.waitTime === undefined
        ? defaultWaitTime
        : checkDuration(options.waitTime, 'options.waitTime', { allowInfinity: true }),
    signal: checkSignal(options.signal),
    owner: options.owner === undefined ? undefined : checkOwnerInUse(checkOwner(options.owner), 'options.owner'),
  };
}

// A fixed lease ends by itself: a maximum on top of it would be a second, conflicting limit.
function checkMaxHoldTime(value: unknown, leaseTime: number | undefined): number | undefined {
  if (value === undefined) return undefined;
  const maxHoldTime = checkDuration(value, 'options.maxHoldTime', { min: 1 });
  if (leaseTime !== undefined)
    throw new InvalidArgumentError(
      'options.maxHoldTime',
      'applies to a hold the watchdog keeps; with options.leaseTime the hold ends when its lease does',
    );
  return maxHoldTime;
}
