// The single-lock kinds. They import the built packages, so that child processes (plain tsx, no
// Lua loader) can build them too.
import type { HeldLock, Lock } from '@deadbolt/core';
import { lockCommands, type Command, type HandOffInput, type HandOffReply, type LockKind } from '@deadbolt/core/kit';
import { FairLock } from '@deadbolt/fair-lock';
import { FencedHeldLock, FencedLock, fencedLockKind } from '@deadbolt/fenced-lock';
import { ReadWriteLock, writeLockKind, type ReadLock, type WriteLock } from '@deadbolt/rwlock';
import { SpinLock } from '@deadbolt/spin-lock';
import { oneClient } from './oneClient.js';
import type { SingleLockKind } from './RegisteredKind.js';
import { LOCK_ROLES } from './LockRole.js';

/** The reentrant lock of `@deadbolt/core`: `client.lock(name)`. */
export const LOCK: SingleLockKind<Lock> = {
  id: 'Lock',
  roles: LOCK_ROLES,
  fair: false,
  spansDeployments: false,
  waiterChannels: 'shared',
  localHandoff: { lock: { handOff: () => lockCommands.handOff, holderFields: (field) => [field] } },
  create: (clients, name) => oneClient(clients).lock(name),
};

/** `new FairLock(client, name)`: grants in arrival order, waking each waiter on a channel of its own. */
export const FAIR_LOCK: SingleLockKind<FairLock> = {
  id: 'FairLock',
  roles: LOCK_ROLES,
  fair: true,
  spansDeployments: false,
  waiterChannels: 'own',
  localHandoff: {},
  create: (clients, name, _role, settings = {}) =>
    new FairLock(
      oneClient(clients),
      name,
      settings.fairWaiterTimeout === undefined ? {} : { waiterTimeout: settings.fairWaiterTimeout },
    ),
};

/** `new FencedLock(client, name)`: every hold carries a fencing token. */
export const FENCED_LOCK: SingleLockKind<FencedLock> = {
  id: 'FencedLock',
  roles: LOCK_ROLES,
  fair: false,
  spansDeployments: false,
  waiterChannels: 'shared',
  localHandoff: {
    lock: { handOff: (name) => declaredHandOff(fencedLockKind(name)), holderFields: (field) => [field] },
  },
  create: (clients, name) => new FencedLock(oneClient(clients), name),
  token: (held) => {
    if (!(held instanceof FencedHeldLock))
      throw new Error(`a FencedLock hold carries a token; got ${held.constructor.name}`);
    return held.token;
  },
};

/** `new ReadWriteLock(client, name)`: its shared `readLock()` and its exclusive `writeLock()`. */
export const READ_WRITE_LOCK: SingleLockKind<ReadLock | WriteLock> = {
  id: 'ReadWriteLock',
  roles: [
    { name: 'read', exclusive: false },
    { name: 'write', exclusive: true },
  ],
  fair: false,
  spansDeployments: false,
  waiterChannels: 'shared',
  // Only the exclusive write lock: read holds are shared, and nothing is passed to a reader.
  localHandoff: {
    write: {
      handOff: (name) => declaredHandOff(writeLockKind(name)),
      holderFields: (field) => ['mode', `${field}:write`],
    },
  },
  create: (clients, name, role) => {
    const lock = new ReadWriteLock(oneClient(clients), name);
    return role === 'read' ? lock.readLock() : lock.writeLock();
  },
};

/** `new SpinLock(client, name)`: Redisson's `RSpinLock`, whose waiters poll with a backoff and never use pub/sub. */
export const SPIN_LOCK: SingleLockKind<SpinLock> = {
  id: 'SpinLock',
  roles: LOCK_ROLES,
  fair: false,
  spansDeployments: false,
  waiterChannels: 'none',
  localHandoff: {},
  create: (clients, name) => new SpinLock(oneClient(clients), name),
};

/** Every single-lock kind. */
export const SINGLE_LOCK_KINDS: readonly SingleLockKind[] = [LOCK, FAIR_LOCK, FENCED_LOCK, READ_WRITE_LOCK, SPIN_LOCK];

// The hand-off in a kind's declaration, for a kind that declares one.
function declaredHandOff<Grant, Held extends HeldLock>({
  handOff,
}: LockKind<Grant, Held>): Command<HandOffInput, HandOffReply<Grant>> {
  if (handOff === undefined) throw new Error('this lock kind declares no hand-off');
  return handOff;
}
