import { LockError } from './LockError.js';

/**
 * What a replica sync confirms (see `LockClientOptions.replicaSync`):
 *
 * - `acquire`: a lock, or a semaphore's permits, just taken;
 * - `release`: a lock's hold, or permits, just given back;
 * - `setCount`: a count-down latch's count just set (`trySetCount`);
 * - `countDown`: a latch just counted down;
 * - `delete`: a latch just deleted.
 */
export type SyncedOperation = 'acquire' | 'release' | 'setCount' | 'countDown' | 'delete';

// What stands after the sync failed: an acquisition is undone, every other write stays done.
const OUTCOMES: Readonly<Record<SyncedOperation, string>> = {
  acquire: 'what it took was given back',
  release: 'it is released on the master',
  setCount: 'the count is set on the master',
  countDown: 'the countdown stands on the master',
  delete: 'the latch is deleted on the master',
};

/**
 * Fewer replicas than required acknowledged a write within the replica sync timeout (see
 * `LockClientOptions.replicaSync`). After an acquisition (a lock, or a semaphore's permits) what it
 * took was given back before this was thrown: nothing is held. After any other write (a release,
 * a latch's `trySetCount`, `countDown` or `delete`) the write *is* done on the master; only its
 * reaching the replicas is unconfirmed. `lockName` is the name of the lock, semaphore or latch.
 */
export class ReplicaSyncError extends LockError {
  /** Which write went unconfirmed. */
  readonly operation: SyncedOperation;
  /** How many replicas acknowledged the write, in the last wait. */
  readonly acknowledged: number;
  /** How many had to. */
  readonly required: number;

  constructor(lockName: string, operation: SyncedOperation, acknowledged: number, required: number) {
    super(
      `${acknowledged} of ${required} required replicas acknowledged the ${operation} of "${lockName}"; ${OUTCOMES[operation]}`,
      { lockName },
    );
    this.operation = operation;
    this.acknowledged = acknowledged;
    this.required = required;
  }
}
