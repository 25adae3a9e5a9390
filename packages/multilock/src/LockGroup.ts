import {
  InvalidArgumentError,
  LockWaitTimeoutError,
  type AcquireOptions,
  type HeldLock,
  type LockBase,
} from '@deadbolt/core';
import {
  checkAcquireOptions,
  checkFunction,
  currentOwner,
  isLock,
  lockRuntime,
  releaseAfter,
  reserveOwner,
  runAsOwner,
  type CheckedAcquireOptions,
} from '@deadbolt/core/kit';
import type { HeldLockGroup } from './HeldLockGroup.js';

/**
 * A member of a lock group: a lock of any kind (`Lock`, `FairLock`, a read or write lock, a
 * `FencedLock`, ...), whatever its held lock carries besides a `HeldLock`'s.
 */
export type MemberLock = LockBase<HeldLock, unknown>;

/**
 * One acquisition of a whole group, as {@link LockGroup.acquireGroup} gets it: the checked options
 * and the owner each member acquires as.
 */
export interface GroupAttempt {
  readonly options: CheckedAcquireOptions;
  /** The owner id for members that have none of their own. */
  readonly owner: string;
  /** The owner of each member, by index in {@link LockGroup.locks}. */
  readonly owners: readonly string[];
}

/**
 * What a `MultiLock` and a `RedLock` share: a fixed set of member locks of any kind, taken as
 * one with `acquire`, `tryAcquire` and `withLock` like a single lock. For lock group authors.
 */
export abstract class LockGroup<Held extends HeldLockGroup> {
  /** The member locks, in the order given. */
  readonly locks: readonly MemberLock[];
  /** The members' names, for messages: `a, b, c`. */
  readonly name: string;

  /**
   * @param locks - the member locks; at least one
   * @throws `InvalidArgumentError` naming `locks` when it is not a non-empty array of locks
   */
  protected constructor(locks: readonly MemberLock[]) {
    this.locks = checkLocks(locks);
    this.name = [...new Set(this.locks.map((lock) => lock.name))].join(', ');
  }

  /**
   * Takes the group, waiting as long as `options.waitTime` (default: the shortest
   * `defaultWaitTime` of the members' clients, without one no limit). `leaseTime`, `maxHoldTime`,
   * `signal` and `owner` apply to every member.
   *
   * @throws `LockWaitTimeoutError` when the wait time runs out
   * @throws the signal's reason when `options.signal` aborts
   * @throws `RedisUnavailableError`, `InvalidArgumentError`, `ClientClosedError`
   */
  async acquire(options?: AcquireOptions): Promise<Held> {
    const checked = checkAcquireOptions(
      options,
      Math.min(...this.locks.map((lock) => lockRuntime(lock.client).defaultWaitTime)),
    );
    const held = await this.#acquireGroup(checked);
    if (!held) throw new LockWaitTimeoutError(this.name, checked.waitTime);
    return held;
  }

  /**
   * Takes the group if it can within `options.waitTime` (default 0: one round, no waiting).
   *
   * @returns the held group, or `null` when it could not be taken in time
   * @throws the signal's reason when `options.signal` aborts
   * @throws `RedisUnavailableError`, `InvalidArgumentError`, `ClientClosedError`
   */
  async tryAcquire(options?: AcquireOptions): Promise<Held | null> {
    return this.#acquireGroup(checkAcquireOptions(options, 0));
  }

  /**
   * Runs `fn` while holding the group and releases it afterwards, also when `fn` throws.
   * Acquisitions of a member lock inside `fn` that name no owner re-enter as that member's owner.
   * `fn` gets a signal that aborts when the group is lost; stop writing when it does.
   *
   * @returns what `fn` returns
   * @throws the group's `LockLostError` when the group was lost while `fn` ran, even if `fn`
   *   returned normally, and when `fn` rejected because the signal aborted, whatever API the
   *   signal went through (see `releaseAfter` in `@deadbolt/core/kit`); else what `fn` throws;
   *   else what {@link LockGroup.acquire} and `release` throw
   */
  async withLock<T>(fn: (signal: AbortSignal, held: Held) => T | Promise<T>, options?: AcquireOptions): Promise<T> {
    checkFunction(fn, 'fn');
    const held = await this.acquire(options);
    const inScope = held.members.reduce<() => T | Promise<T>>(
      (inner, member) => () => runAsOwner(member.name, member.owner, inner),
      () => fn(held.signal, held),
    );
    return releaseAfter(held, inScope);
  }

  /** Takes every member (or a quorum) as `attempt` says; resolves `null` when the wait ran out. */
  protected abstract acquireGroup(attempt: GroupAttempt): Promise<Held | null>;

  async #acquireGroup(options: CheckedAcquireOptions): Promise<Held | null> {
    if (options.owner !== undefined) return this.acquireGroup(this.#attempt(options, options.owner));
    // A generated group owner is given to every member as `owner`: it stays valid for that until
    // the members' holds, which keep it valid themselves, exist.
    const reserved = reserveOwner();
    try {
      return await this.acquireGroup(this.#attempt(options, reserved.owner));
    } finally {
      reserved[Symbol.dispose]();
    }
  }

  #attempt(options: CheckedAcquireOptions, owner: string): GroupAttempt {
    // A member already held in an enclosing withLock re-enters as that scope's owner rather than
    // waiting for itself.
    const owners = this.locks.map((lock) => options.owner ?? currentOwner(lock.name) ?? owner);
    return { options, owner, owners };
  }
}

/**
 * The options one member is acquired with in a group attempt: the group's lease (or maximum
 * hold time), signal and the member's owner, with the given wait. For lock group authors.
 */
export function memberOptions(attempt: GroupAttempt, index: number, waitTime: number): AcquireOptions {
  const { leaseTime, maxHoldTime, signal } = attempt.options;
  return {
    waitTime,
    owner: attempt.owners[index] ?? attempt.owner,
    ...(leaseTime === undefined ? {} : { leaseTime }),
    ...(maxHoldTime === undefined ? {} : { maxHoldTime }),
    ...(signal === undefined ? {} : { signal }),
  };
}

function checkLocks(value: unknown): readonly MemberLock[] {
  if (!Array.isArray(value)) throw new InvalidArgumentError('locks', 'expected an array of locks');
  if (value.length === 0) throw new InvalidArgumentError('locks', 'must hold at least one lock');
  value.forEach((lock: unknown, index) => {
    if (!isLock(lock))
      throw new InvalidArgumentError(`locks[${index}]`, 'expected a lock (Lock, FairLock, ReadLock, WriteLock, ...)');
  });
  return Object.freeze(value.filter(isLock));
}
