import { InvalidArgumentError } from '@deadbolt/core';
import { checkCount, checkDuration, checkOptions, checkSignal } from '@deadbolt/core/kit';

/**
 * A number of permits: a safe integer of at least `min` (past 2^53 a number no longer names one
 * integer).
 *
 * @throws `InvalidArgumentError` naming `argument`
 */
export function checkPermits(value: unknown, min: number, argument = 'permits'): number {
  checkCount(value, argument, min);
  if (!Number.isSafeInteger(value))
    throw new InvalidArgumentError(argument, `must be a safe integer, got ${String(value)}`);
  return value as number;
}

/** The options both semaphores' acquisitions take, as given. */
interface GivenAcquireOptions {
  waitTime?: number;
  signal?: AbortSignal;
  leaseTime?: number;
}

/** An acquisition's arguments, checked. */
export interface CheckedPermitAcquire {
  readonly permits: number;
  readonly waitTime: number;
  readonly signal: AbortSignal | undefined;
  /** `undefined` when not given (or not an option of this semaphore). */
  readonly leaseTime: number | undefined;
}

/** What an acquisition of one kind of semaphore accepts. */
export interface AcquireRules {
  /** The fewest permits an acquisition may ask for. */
  readonly minPermits: number;
  /** The wait time when none is given: the client's `defaultWaitTime` for `acquire`, 0 for `tryAcquire`. */
  readonly defaultWait: number;
  /** Whether `leaseTime` is an option. */
  readonly leased: boolean;
}

const OPTIONS = ['waitTime', 'signal'] as const;
const LEASED_OPTIONS = [...OPTIONS, 'leaseTime'] as const;

/**
 * The arguments of an acquisition, checked before anything reaches Redis.
 *
 * @throws `InvalidArgumentError` naming the bad one
 */
export function checkAcquire(permits: unknown, options: unknown, rules: AcquireRules): CheckedPermitAcquire {
  checkPermits(permits, rules.minPermits);
  const checked = checkOptions<GivenAcquireOptions>(options, rules.leased ? LEASED_OPTIONS : OPTIONS);
  return {
    permits: permits as number,
    waitTime:
      checked.waitTime === undefined
        ? rules.defaultWait
        : checkDuration(checked.waitTime, 'options.waitTime', { allowInfinity: true }),
    signal: checkSignal(checked.signal),
    leaseTime:
      checked.leaseTime === undefined ? undefined : checkDuration(checked.leaseTime, 'options.leaseTime', { min: 1 }),
  };
}
