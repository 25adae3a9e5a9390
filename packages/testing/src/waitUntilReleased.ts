import type { LockBase } from '@deadbolt/core';
import { checkDuration, checkOptions } from '@deadbolt/core/kit';
import { waitFor } from './wait.js';

/** Options of {@link waitUntilReleased}. */
export interface WaitUntilReleasedOptions {
  /** Fail after this many milliseconds. Default 5000. */
  timeout?: number;
}

/**
 * Resolves once nobody holds `lock` (of any kind), checking every 10 ms; rejects when that has
 * not happened within `options.timeout`. For a test that starts work which locks in the
 * background and must see it finish.
 *
 * @throws `InvalidArgumentError` for an unknown option or a timeout that is not a positive number
 */
export async function waitUntilReleased(
  lock: Pick<LockBase, 'name' | 'isLocked'>,
  options?: WaitUntilReleasedOptions,
): Promise<void> {
  const { timeout = 5_000 } = checkOptions<WaitUntilReleasedOptions>(options, ['timeout']);
  await waitFor(async () => !(await lock.isLocked()), {
    timeoutMs: checkDuration(timeout, 'options.timeout', { min: 1 }),
    intervalMs: 10,
    description: `lock "${lock.name}" is released`,
  });
}
