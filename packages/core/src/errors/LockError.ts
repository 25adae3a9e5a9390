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
 * Why a hold was lost, as {@link LockLostError.reason} says it:
 * - `leaseEnded`: its fixed `leaseTime` ran out while it was held (a lease the holder chose; for
 *   a job that keeps its lock to the end of its lease, this is how the hold ends);
 * - `gone`: the watchdog, an `extend` or the release found it no longer in Redis: it expired (a
 *   process paused past its lease), was force-unlocked, evicted, or lost in a failover; Redis
 *   does not say which;
 * - `unreachable`: Redis could not be reached to renew it before its lease ended;
 * - `outcomeUnknown`: an `extend` or a release whose outcome is unknown (Redis unreachable, no
 *   reply in time) may have ended it;
 * - `clientClosed`: its client was closed, which stops renewal;
 * - `maxHoldTimeReached`: the watchdog kept it for the `maxHoldTime` it was acquired with, and
 *   then let it end (a holder that is alive but stuck loses its lock to the next one).
 */
export type LockLossReason =
  'leaseEnded' | 'gone' | 'unreachable' | 'outcomeUnknown' | 'clientClosed' | 'maxHoldTimeReached';

/**
 * A held lock was lost: its fixed lease ended, its renewal found it gone (expired, force-unlocked,
 * evicted) or could not reach Redis before its lease ended, or its client was closed; the
 * {@link LockLostError.reason} says which. This is the `reason` of the held lock's aborted
 * `signal`, the payload of the client's `lockLost` event, and what `withLock`, `release()` and
 * `await using` reject with for a hold that was lost.
 */
export class LockLostError extends LockError {
  /** Why the hold was lost. */
  readonly reason: LockLossReason;

  constructor(message: string, options: { lockName?: string | undefined; cause?: unknown; reason: LockLossReason }) {
    super(message, options);
    this.reason = options.reason;
  }
}

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
