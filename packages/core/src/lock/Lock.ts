import { holdMarkersKey } from '../keys/lockKeys.js';
import { coreScripts } from '../scripts/coreScripts.js';
import type { AttemptContext } from './LockBase.js';
import { ReentrantLockBase } from './ReentrantLockBase.js';

/**
 * A reentrant distributed lock: Redisson's `RLock`, stored in Redisson's layout (a hash at the
 * lock name whose field `<clientId>:<ownerId>` counts the owner's holds), so Java services using
 * Redisson and Node services using Deadbolt exclude each other on the same name.
 *
 * Every acquisition has an owner. Without `owner`, each acquisition outside this lock's
 * `withLock` scope gets a fresh one, so concurrent tasks sharing this handle exclude each other;
 * inside a `withLock` callback, nested acquisitions of the same lock re-enter as the scope's owner.
 *
 * @example
 * ```ts
 * const lock = locks.lock('orders:42');
 * // ...
 * // Held for the block: released when it ends, also when it throws.
 * {
 *   await using held = await lock.acquire({ waitTime: 2_000 });
 *   console.log(`await using: held by owner ${held.owner}`);
 * }
 *
 * // Held for the callback: released when it returns or throws; its result is withLock's.
 * const total = await lock.withLock(async (signal) => {
 *   signal.throwIfAborted(); // stop before writing if the lock was lost
 *   return 3 * 14;
 * }, { waitTime: 2_000 });
 * ```
 */
export class Lock extends ReentrantLockBase {
  protected tryAcquireOnce(attempt: AttemptContext): Promise<number | null> {
    const { field, lease, hold } = attempt;
    return this.runAcquireScript(coreScripts.acquire, [this.name, holdMarkersKey(this.name)], [lease, field, hold], attempt);
  }
}
