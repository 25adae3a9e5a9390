import { InvalidArgumentError } from '../errors/LockError.js';
import { checkOptions } from '../options/validate.js';

/** Options of `forceUnlock`. */
export interface ForceUnlockOptions {
  /**
   * The lock's hash as it was read when the operator decided (field -> value, as `HGETALL` gives
   * it): the lock is deleted only while it is still exactly that, e.g. what `deadbolt unlock`
   * showed. Default: read just before deleting.
   */
  holders?: Readonly<Record<string, string>>;
}

/** {@link ForceUnlockOptions} after validation. */
export interface CheckedForceUnlockOptions {
  readonly holders: Readonly<Record<string, string>> | undefined;
}

const KNOWN = ['holders'] as const;

/** Validates force-unlock options; throws `InvalidArgumentError` naming the bad one. */
export function checkForceUnlockOptions(value: unknown): CheckedForceUnlockOptions {
  const { holders } = checkOptions<ForceUnlockOptions>(value, KNOWN);
  if (holders === undefined) return { holders };
  if (typeof holders !== 'object' || holders === null || Array.isArray(holders)) {
    throw new InvalidArgumentError('options.holders', 'expected an object of hash fields and their values');
  }
  for (const [field, count] of Object.entries(holders)) {
    if (typeof count !== 'string')
      throw new InvalidArgumentError(`options.holders["${field}"]`, `expected a string, got ${typeof count}`);
  }
  return { holders };
}
