import { lockAcquire } from '../commands/lockAcquire.js';
import { lockExtend } from '../commands/lockExtend.js';
import { lockForceRelease } from '../commands/lockForceRelease.js';
import { lockHandOff } from '../commands/lockHandOff.js';
import { lockRelease } from '../commands/lockRelease.js';
import { lockState } from '../commands/lockState.js';
import { lockRenew } from '../commands/renewBatch.js';
import { lockChannelName } from '../keys/lockKeys.js';
import type { LockHost } from '../runtime/LockRuntime.js';
import { heldLock } from './HeldLock.js';
import { call } from '../scripts/Command.js';
import { LockBase } from './LockBase.js';
import type { LockKind } from './LockKind.js';

/**
 * The reentrant lock's declaration (Redisson's `RLock` layout): a hash at the name whose field
 * `<clientId>:<ownerId>` counts the owner's holds; releases announced on
 * `redisson_lock__channel:{name}`, where every waiter waits. Without a hand-off: a kind that
 * spreads it and takes holds its own way declares its own (`lockCommands.handOff` is the plain
 * lock's), or releases to everyone.
 */
export function reentrantLockKind(name: string): Omit<LockKind, 'handOff'> {
  const channel = lockChannelName(name);
  return {
    kindName: 'lock',
    acquire: ({ field, hold, lease }) => call(lockAcquire, { name, field, hold, lease }),
    release: (field, hold) => call(lockRelease, { name, field, hold }),
    forceRelease: ({ request, holders }) => call(lockForceRelease, { name, request, holders }),
    extend: (field, hold, lease, request) => call(lockExtend, { name, field, hold, lease, request }),
    state: (field) => call(lockState, { name, field }),
    renew: lockRenew,
    waitChannel: () => channel,
    held: heldLock,
  };
}

/**
 * The plain lock's declaration: the reentrant lock's, whose releases pass the lock to a waiting
 * task of the same client when there is one (see `LocalHandoffOptions`). Kinds built on
 * {@link reentrantLockKind} that take holds their own way declare a hand-off of their own.
 */
function plainLockKind(name: string): LockKind {
  return { ...reentrantLockKind(name), handOff: lockHandOff };
}

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
export class Lock extends LockBase {
  /**
   * @param client - the `LockClient` to use
   * @param name - the lock's name; a name with `{braces}` is its own cluster hash tag
   * @throws `InvalidArgumentError` when `name` is not a non-empty string
   */
  constructor(client: LockHost, name: string) {
    super(client, name, plainLockKind);
  }
}
