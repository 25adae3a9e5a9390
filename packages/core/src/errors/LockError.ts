/**
 * The base of every error Deadbolt throws on purpose. Catch this to handle any lock failure;
 * check the subclass to learn what happened.
 */
export class LockError extends Error {
  /** The lock the failure concerns, when there is one. */
  readonly lockName: string | undefined;

  constructor(message: string, options: { lockName?: string | undefined; cause?: unknown } = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = new.target.name;
    this.lockName = options.lockName;
  }
}

/**
 * A release, or a query that needs ownership, found that the caller does not hold the lock:
 * it was never taken by this owner, it was already released, or its lease ran out. Nothing in
 * Redis was changed.
 */
export class LockNotHeldError extends LockError {}

/** A wait for a lock ended because its wait time ran out. Nothing is left behind in Redis. */
export class LockWaitTimeoutError extends LockError {
  /** The wait time that ran out, in milliseconds. */
  readonly waitTime: number;

  constructor(lockName: string, waitTime: number) {
    super(`Timed out after ${waitTime} ms waiting for lock "${lockName}"`, { lockName });
    this.waitTime = waitTime;
  }
}

/**
 * A held lock was lost: its renewal found it gone (expired or force-unlocked), or Redis could
 * not be reached before its lease ended. This is the `reason` of the held lock's aborted
 * `signal` and the payload of the client's `lockLost` event.
 */
export class LockLostError extends LockError {}

/** An argument was rejected before anything was sent to Redis. */
export class InvalidArgumentError extends LockError {
  /** The name of the offending argument or option, e.g. `options.leaseTime`. */
  readonly argument: string;

  constructor(argument: string, problem: string) {
    super(`Invalid argument ${argument}: ${problem}`);
    this.argument = argument;
  }
}

/**
 * Redis could not be reached, or did not answer within `commandTimeout`, or the driver failed.
 * The driver's error, when there is one, is the `cause`.
 */
export class RedisUnavailableError extends LockError {}

/** The lock client was closed; no new work is accepted and waits in progress end with this. */
export class ClientClosedError extends LockError {
  constructor() {
    super('The lock client is closed');
  }
}
