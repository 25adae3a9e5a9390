import { LockWaitTimeoutError } from '@deadbolt/core';

/**
 * `Semaphore.acquire` waited its whole `waitTime` and too few permits came free. It extends
 * core's `LockWaitTimeoutError`, so code that handles a lock's wait timeout handles this too.
 * Nothing was taken and nothing is left behind.
 */
export class PermitWaitTimeoutError extends LockWaitTimeoutError {
  /** How many permits the acquisition asked for. */
  readonly permits: number;

  constructor(semaphoreName: string, waitTime: number, permits: number) {
    super(semaphoreName, waitTime);
    this.message = `Timed out after ${waitTime} ms waiting for ${permits} permit(s) of semaphore "${semaphoreName}"`;
    this.permits = permits;
  }
}
