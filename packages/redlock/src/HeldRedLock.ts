import { HeldLockGroup, type LockGroupHold } from '@deadbolt/multilock';

/** How a {@link RedLock} describes one successful acquisition to {@link HeldRedLock}. */
export interface RedLockHold extends LockGroupHold {
  /** Milliseconds of validity left when the quorum was reached. */
  readonly validity: number;
}

/**
 * One acquisition of a {@link RedLock}: a {@link HeldLockGroup} that counts as held while a
 * quorum of its deployments hold it. Its `members` are the deployments that granted (one that
 * grants after the quorum was reached joins them); its `signal` aborts once fewer than a quorum
 * remain; its release is best effort on every member, each bounded by the RedLock's
 * `nodeTimeout`, gives back a grant still in flight as it arrives, and throws a `LockGroupError`
 * when more than N minus the quorum of its N members could not be released (lost, or unreachable).
 */
export class HeldRedLock extends HeldLockGroup {
  /**
   * Milliseconds the lock was valid for when it was acquired: the lease (or the watchdog's lease)
   * minus the time acquiring took minus the clock drift allowance. Work that must finish under
   * the lock should fit in it, counted from the acquisition.
   */
  readonly validity: number;

  /** For the RedLock: wraps a successful acquisition. */
  constructor(hold: RedLockHold) {
    super(hold);
    this.validity = hold.validity;
  }
}
