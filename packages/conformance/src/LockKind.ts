import type { AcquireOptions, HeldLock, LockClient } from '@deadbolt/core';

/** What the conformance suite needs of a lock: the operations every Deadbolt lock kind offers. */
export interface ConformantLock {
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

/**
 * A lock kind under test. `module` and `exportName` locate this very object so that child
 * processes (the multi-process tests) can build the same kind.
 */
export interface LockKind {
  readonly name: string;
  create(client: LockClient, name: string): ConformantLock;
  /** An importable specifier or file URL of the module exporting this kind. */
  readonly module: string;
  readonly exportName: string;
  /**
   * How a release reaches waiters: `shared` (the default), one channel per lock that every local
   * waiter shares; `own`, a channel per waiter, so that a release wakes exactly the next one (the
   * fair lock).
   */
  readonly waiterChannels?: 'shared' | 'own';
  /**
   * How owners hold the lock: `exclusive` (the default), one owner at a time; `shared`, any
   * number of owners at once, each hold with its own lease, the lock living as long as the
   * longest (a read lock). For a shared kind the tests in which one owner must keep another out,
   * or in which a re-entry's lease sets the lock's TTL, are skipped.
   */
  readonly holders?: 'exclusive' | 'shared';
}

/** The reentrant lock of `@deadbolt/core`. */
export const plainLock: LockKind = {
  name: 'Lock',
  create: (client, name) => client.lock(name),
  module: import.meta.url,
  exportName: 'plainLock',
};
