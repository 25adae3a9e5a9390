import { LockTask } from './LockTask.js';
import { ReadLockTask } from './ReadLockTask.js';
import type { RenewalHost } from './RenewalTask.js';

/**
 * Redisson's `LockRenewalScheduler`: the client's two renewal tasks, {@link LockTask} for
 * exclusive locks and {@link ReadLockTask} for read locks, each on its own timer.
 */
export class LockRenewalScheduler {
  readonly lockTask: LockTask;
  readonly readLockTask: ReadLockTask;

  constructor(host: RenewalHost) {
    this.lockTask = new LockTask(host);
    this.readLockTask = new ReadLockTask(host);
  }

  /** Whether either task has its timer armed. */
  get running(): boolean {
    return this.lockTask.running || this.readLockTask.running;
  }

  /** Stops both tasks for good. */
  stop(): void {
    this.lockTask.stop();
    this.readLockTask.stop();
  }
}
