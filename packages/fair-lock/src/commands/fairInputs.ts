import type { FairLockKeys } from '../fairLockKeys.js';

/** What every fair-lock command names: the lock's keys and its waiter timeout. */
export interface FairLockInput {
  /** The lock's keys. */
  readonly keys: FairLockKeys;
  /** The most a head waiter is given to take a free lock, in milliseconds (`FairLock.waiterTimeout`). */
  readonly waiterTimeout: number;
}

/** KEYS[1..4] of every fair-lock script (`queue.lua`): the lock, the queue, the deadlines, the channel. */
export function queueKeys({ lock, queue, timeouts, channel }: FairLockKeys): string[] {
  return [lock, queue, timeouts, channel];
}
