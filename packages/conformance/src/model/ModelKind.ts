import type { LockClient } from '@deadbolt/core';
import { FairLock } from '@deadbolt/fair-lock';
import { FencedHeldLock, FencedLock } from '@deadbolt/fenced-lock';
import { ReadWriteLock } from '@deadbolt/rwlock';
import type { ConformantLock } from '../LockKind.js';
import type { HalfChoice } from './steps.js';

/**
 * Which lock a hold is of: the lock of an exclusive kind, or the read or write lock of a
 * read-write lock. Holds of `exclusive` and `write` keep every other owner out; `read` holds of
 * distinct owners share.
 */
export type Half = 'exclusive' | 'read' | 'write';

/** The locks of one kind on one client, over the run's one lock name. */
export interface ModelLocks {
  /** The lock a step's half choice means (for a kind without halves, its one lock). */
  lock(half: HalfChoice): ConformantLock;
}

/** A single-lock kind under the model: how to build it and how its holds appear in Redis. */
export interface ModelKind {
  readonly name: string;
  /** Whether it is a read-write lock (two halves, Redisson's rwlock layout). */
  readonly readWrite: boolean;
  create(client: LockClient, name: string): ModelLocks;
  /** The hold kind a step's half choice means. */
  halfOf(choice: HalfChoice): Half;
  /** The hash field that counts `owner`'s holds of `half` on the client `clientId`. */
  field(clientId: string, owner: string, half: Half): string;
  /** Checks what a kind's held lock carries beyond a `HeldLock`; returns a problem or `undefined`. */
  checkHeld?(held: unknown, previous: readonly unknown[]): string | undefined;
}

const ownerField = (clientId: string, owner: string) => `${clientId}:${owner}`;

function single(name: string, create: (client: LockClient, lockName: string) => ConformantLock): ModelKind {
  return {
    name,
    readWrite: false,
    create: (client, lockName) => {
      const lock = create(client, lockName);
      return { lock: () => lock };
    },
    halfOf: () => 'exclusive',
    field: ownerField,
  };
}

/** The reentrant lock of core. */
export const lockKind: ModelKind = single('Lock', (client, name) => client.lock(name));

/** The fair lock; a short waiter timeout, as the reliability suite uses. */
export const fairLockKind: ModelKind = single('FairLock', (client, name) => new FairLock(client, name, { waiterTimeout: 1_000 }));

/** The fenced lock: every acquisition's token must be greater than every earlier one's. */
export const fencedLockKind: ModelKind = {
  ...single('FencedLock', (client, name) => new FencedLock(client, name)),
  checkHeld(held, previous) {
    if (!(held instanceof FencedHeldLock)) return 'a FencedLock acquisition did not return a FencedHeldLock';
    const earlier = previous.filter((other): other is FencedHeldLock => other instanceof FencedHeldLock && other !== held);
    const top = earlier.reduce<bigint | undefined>((max, other) => (max === undefined || other.token > max ? other.token : max), undefined);
    return top !== undefined && held.token <= top ? `fencing token ${held.token} is not above an earlier one (${top})` : undefined;
  },
};

/** The read lock and the write lock of one ReadWriteLock name, in one run. */
export const readWriteLockKind: ModelKind = {
  name: 'ReadWriteLock',
  readWrite: true,
  create: (client, name) => {
    const lock = new ReadWriteLock(client, name);
    return { lock: (half) => (half === 'read' ? lock.readLock() : lock.writeLock()) };
  },
  halfOf: (choice) => choice,
  field: (clientId, owner, half) => (half === 'write' ? `${ownerField(clientId, owner)}:write` : ownerField(clientId, owner)),
};

/** Every single-lock kind the model runs. */
export const MODEL_KINDS: readonly ModelKind[] = [lockKind, fencedLockKind, fairLockKind, readWriteLockKind];

/** Whether a hold of `a` and one of `b` by distinct owners exclude each other. */
export function conflicts(a: Half, b: Half): boolean {
  return !(a === 'read' && b === 'read');
}
