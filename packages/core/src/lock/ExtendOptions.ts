import { InvalidArgumentError } from '../errors/LockError.js';
import { checkOptions, describeValue } from '../options/validate.js';

/** Options of `HeldLock.extend`. */
export interface ExtendOptions {
  /**
   * `true` to extend a hold the watchdog keeps (see `HeldLock.keptByWatchdog`): the extend sets a
   * fixed lease and renewal stops for good, so the hold ends when that lease does unless extended
   * again. Required for such a hold, so that nobody ends renewal by accident; a hold with a fixed
   * lease needs nothing.
   */
  stopWatchdog?: boolean;
}

/**
 * Validates the options of an extend of a hold that the watchdog keeps (`keptByWatchdog`) or not.
 *
 * @throws `InvalidArgumentError` naming `options.stopWatchdog` when it is not a boolean, or not
 *   `true` for a hold the watchdog keeps
 */
export function checkExtendOptions(value: unknown, keptByWatchdog: boolean): void {
  const { stopWatchdog } = checkOptions<ExtendOptions>(value, ['stopWatchdog']);
  if (stopWatchdog !== undefined && typeof stopWatchdog !== 'boolean')
    throw new InvalidArgumentError('options.stopWatchdog', `expected a boolean, got ${describeValue(stopWatchdog)}`);
  if (keptByWatchdog && stopWatchdog !== true)
    throw new InvalidArgumentError(
      'options.stopWatchdog',
      'must be true to extend a hold the watchdog keeps: the extend sets a fixed lease and renewal stops',
    );
}
