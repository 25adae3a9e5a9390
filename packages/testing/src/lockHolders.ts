import type { LockClient } from '@deadbolt/core';
import { call, checkLockName, lockCommands, lockRuntime } from '@deadbolt/core/kit';

/** One owner holding a lock, from {@link lockHolders}. */
export interface LockHolder {
  /** The id of the client that took it: `LockClient.id` for a Deadbolt client. */
  readonly clientId: string;
  /** The owner: a held lock's `owner`, or the name passed as `options.owner`. */
  readonly owner: string;
  /** How many times this owner holds the lock (reentrant acquisitions). */
  readonly holds: number;
}

/**
 * Who holds the lock named `name` right now, read from Redis through `locks`: an empty list when
 * nobody does. For locks in the reentrant lock's layout (`Lock`, `FairLock`, `FencedLock`,
 * `SpinLock`, and Redisson's `RLock`), whichever process took them.
 *
 * @throws `InvalidArgumentError` when `name` is not a lock name
 */
export async function lockHolders(locks: LockClient, name: string): Promise<LockHolder[]> {
  const checked = checkLockName(name);
  const hash = await lockRuntime(locks).run(call(lockCommands.holders, { name: checked }));
  return Object.entries(hash).flatMap(([field, value]) => {
    const separator = field.indexOf(':');
    // Hold counts are the only integer values of a lock hash; other fields are a kind's own.
    if (separator < 0 || !/^[1-9]\d*$/.test(value)) return [];
    return [{ clientId: field.slice(0, separator), owner: field.slice(separator + 1), holds: Number(value) }];
  });
}
