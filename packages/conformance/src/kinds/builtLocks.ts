import type { AcquireOptions, HeldLock } from '@deadbolt/core';

/** A hold of any kind: a lock's `HeldLock`, or a group's `HeldLockGroup` / `HeldRedLock`. */
export interface LockHold {
  readonly signal: AbortSignal;
  release(): Promise<void>;
}

/**
 * What every kind builds, single lock or lock group: it is taken and released. Queries are no
 * part of it: only the single locks offer them (see {@link ConformantLock}).
 */
export interface AcquirableLock {
  acquire(options?: AcquireOptions): Promise<LockHold>;
  tryAcquire(options?: AcquireOptions): Promise<LockHold | null>;
  withLock<T>(fn: (signal: AbortSignal) => T | Promise<T>, options?: AcquireOptions): Promise<T>;
}

/** What a single lock offers beyond a group: a name of its own, queries, and holds that are `HeldLock`s. */
export interface ConformantLock extends AcquirableLock {
  readonly name: string;
  acquire(options?: AcquireOptions): Promise<HeldLock>;
  tryAcquire(options?: AcquireOptions): Promise<HeldLock | null>;
  withLock<T>(fn: (signal: AbortSignal, held: HeldLock) => T | Promise<T>, options?: AcquireOptions): Promise<T>;
  forceUnlock(): Promise<boolean>;
  isLocked(): Promise<boolean>;
  isHeldBy(owner?: string): Promise<boolean>;
  holdCount(owner?: string): Promise<number>;
  remainingTtl(): Promise<number | null>;
}
