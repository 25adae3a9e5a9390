import type { LockClient } from '@deadbolt/core';
import {
  SHORT_WAITER_TIMEOUT,
  SINGLE_LOCK_KINDS,
  type ConformantLock,
  type LockHold,
  type RoleName,
  type SingleLockKind,
} from '../kinds/index.js';
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
  checkHeld?(held: LockHold, previous: readonly LockHold[]): string | undefined;
}

const ownerField = (clientId: string, owner: string) => `${clientId}:${owner}`;

/**
 * `kind` under the model, built with a short fair-lock waiter timeout, as the reliability suite
 * builds it. A kind with a shared role is a read-write lock, in Redisson's layout: a writer's
 * field ends in `:write`. A kind with fencing tokens gets its tokens checked.
 */
function modelKind(kind: SingleLockKind): ModelKind {
  const readWrite = kind.roles.some((role) => !role.exclusive);
  const roleOf = (half: HalfChoice): RoleName => (readWrite ? half : 'lock');
  return {
    name: kind.id,
    readWrite,
    create: (client, name) => {
      const locks = new Map(
        kind.roles.map((role) => [role.name, kind.create([client], name, role.name, SHORT_WAITER_TIMEOUT)]),
      );
      return {
        lock: (half) => {
          const lock = locks.get(roleOf(half));
          if (lock === undefined) throw new Error(`${kind.id} has no ${roleOf(half)} role`);
          return lock;
        },
      };
    },
    halfOf: (choice) => (readWrite ? choice : 'exclusive'),
    field: (clientId, owner, half) =>
      half === 'write' ? `${ownerField(clientId, owner)}:write` : ownerField(clientId, owner),
    ...(kind.token === undefined ? {} : { checkHeld: tokensRise(kind.token) }),
  };
}

/** A check that every acquisition's fencing token is greater than every earlier one's. */
function tokensRise(token: (held: LockHold) => bigint): NonNullable<ModelKind['checkHeld']> {
  return (held, previous) => {
    let own: bigint;
    try {
      own = token(held);
    } catch (error) {
      return error instanceof Error ? error.message : String(error);
    }
    const top = previous
      .filter((other) => other !== held)
      .map(token)
      .reduce<bigint | undefined>((max, other) => (max === undefined || other > max ? other : max), undefined);
    return top !== undefined && own <= top ? `fencing token ${own} is not above an earlier one (${top})` : undefined;
  };
}

/** Every single-lock kind of the registry, as the model runs it. */
export const MODEL_KINDS: readonly ModelKind[] = SINGLE_LOCK_KINDS.map(modelKind);

/** Whether a hold of `a` and one of `b` by distinct owners exclude each other. */
export function conflicts(a: Half, b: Half): boolean {
  return !(a === 'read' && b === 'read');
}
