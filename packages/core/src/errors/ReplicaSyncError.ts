import { LockError } from './LockError.js';

/** What a replica sync confirms: a lock just taken, or a hold just released. */
export type SyncedOperation = 'acquire' | 'release';

/**
 * Fewer replicas than required acknowledged a lock operation within the replica sync timeout
 * (see `LockClientOptions.replicaSync`). After an acquisition the lock was given back before this
 * was thrown: nothing is held. After a release the lock *is* released on the master; only its
 * reaching the replicas is unconfirmed.
 */
export class ReplicaSyncError extends LockError {
  /** Whether the unconfirmed write took the lock or released it. */
  readonly operation: SyncedOperation;
  /** How many replicas acknowledged the write, in the last wait. */
  readonly acknowledged: number;
  /** How many had to. */
  readonly required: number;

  constructor(lockName: string, operation: SyncedOperation, acknowledged: number, required: number) {
    const outcome = operation === 'acquire' ? 'the lock was given back' : 'the lock is released on the master';
    super(
      `${acknowledged} of ${required} required replicas acknowledged the ${operation} of lock "${lockName}"; ${outcome}`,
      { lockName },
    );
    this.operation = operation;
    this.acknowledged = acknowledged;
    this.required = required;
  }
}
