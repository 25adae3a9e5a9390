import { LockError } from '@deadbolt/core';

/**
 * An owner that holds the read lock of a {@link ReadWriteLock} asked for its write lock. The
 * write lock waits for every reader to leave, this owner included, so no wait could ever grant
 * it: the acquisition fails at once instead, and nothing in Redis is changed. Release the read
 * holds first, then take the write lock. (The other way round is allowed: the write lock's owner
 * may take the read lock, and keeps it after releasing the write lock.)
 */
export class LockUpgradeError extends LockError {
  /** The owner id that holds the read lock. */
  readonly owner: string;

  /**
   * @param lockName - the read-write lock's name
   * @param owner - the owner id that holds its read lock
   */
  constructor(lockName: string, owner: string) {
    super(
      `Owner ${owner} holds the read lock of "${lockName}" and cannot also take its write lock: release the read holds first`,
      { lockName },
    );
    this.owner = owner;
  }
}
