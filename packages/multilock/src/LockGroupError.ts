import { LockError, type HeldLock } from '@deadbolt/core';

/** One member of a lock group that an operation on the whole group could not complete for. */
export interface MemberFailure {
  /** The member's hold; a failed release can be retried on it. */
  readonly member: HeldLock;
  /** Why it failed: usually a `LockLostError` (lost) or a `RedisUnavailableError`. */
  readonly error: LockError;
}

/**
 * A release or extension of a {@link HeldLockGroup} failed on too many members: for a MultiLock
 * on any member, for a RedLock on so many that the group could still keep others out (release)
 * or no longer holds a quorum (extend). Every other member was still released or extended.
 */
export class LockGroupError extends LockError {
  /** What was attempted on every member. */
  readonly operation: 'release' | 'extend';
  /** The members it failed for, with why. */
  readonly failures: readonly MemberFailure[];

  constructor(operation: 'release' | 'extend', failures: readonly MemberFailure[]) {
    const names = failures.map(({ member, error }) => `"${member.name}" (${error.message})`).join(', ');
    super(
      `Could not ${operation} ${failures.length} member lock${failures.length === 1 ? '' : 's'} of the group: ${names}`,
      {
        lockName: failures[0]?.member.name,
      },
    );
    this.operation = operation;
    this.failures = failures;
  }
}
