import { InvalidArgumentError } from '../errors/LockError.js';
import { checkCount, checkDuration, checkOptions } from '../options/validate.js';

/**
 * Replica sync: after every acquisition and release, wait until replicas have the write, so that
 * a failover to a replica cannot hand out a lock that is held, nor permits that are taken, nor
 * forget permits given back (Redis replicates asynchronously). It applies to every lock kind, to
 * the permits of `Semaphore` and `PermitExpirableSemaphore` (`acquire`, `tryAcquire`, and every
 * release of permits), and to a `CountDownLatch`'s count (`trySetCount`, `countDown`, `delete`).
 * The semaphores' `trySetPermits`, `addPermits`, `drainPermits` and `updateLeaseTime`, and the
 * watchdog's renewals, do not wait. Every time is in milliseconds.
 *
 * Deadbolt sends `WAIT <replicas> <timeout>` on the connection that ran the script (in a
 * cluster, the master owning the name's slot), or `WAITAOF 0 <replicas> <timeout>` when that
 * server has AOF on and is Redis 7.2 or later: then the replicas have also written the change to
 * their append-only file. The server is probed once per client (`INFO`) to choose.
 *
 * When fewer than `replicas` acknowledge within `timeout` (after `retries` more waits), an
 * acquisition gives what it took back (the lock, or the permits) and fails with
 * `ReplicaSyncError` (`operation: 'acquire'`); a release fails with it too (`'release'`), though
 * the lock or permits are released on the master, and so does a latch's change (`'setCount'`,
 * `'countDown'`, `'delete'`), which stands on the master.
 *
 * WAIT blocks the connection it runs on: while it waits, the other commands your application
 * sends on the same Redis client wait behind it. A healthy replica answers within a round trip;
 * keep `timeout` short.
 */
export interface ReplicaSyncOptions {
  /** How many replicas must acknowledge. Default 1, at least 1. */
  replicas?: number;
  /** How long one wait for them may take. At least 1 (a WAIT with timeout 0 would never end). */
  timeout: number;
  /**
   * How many more times to wait when too few replicas acknowledged, before failing: a replica
   * that catches up during a later wait still counts. Between waits, the commands queued behind
   * the connection run. Default 0.
   */
  retries?: number;
}

/** {@link ReplicaSyncOptions} after validation, with defaults applied. */
export type ResolvedReplicaSyncOptions = Readonly<Required<ReplicaSyncOptions>>;

const KNOWN = ['replicas', 'timeout', 'retries'] as const;
const ARGUMENT = 'options.replicaSync';

/** Validates `options.replicaSync`; `undefined` when replica sync is off. */
export function resolveReplicaSyncOptions(value: unknown): ResolvedReplicaSyncOptions | undefined {
  if (value === undefined) return undefined;
  const options = checkOptions<ReplicaSyncOptions>(value, KNOWN, ARGUMENT);
  if (options.timeout === undefined) throw new InvalidArgumentError(`${ARGUMENT}.timeout`, 'is required');
  return Object.freeze({
    replicas: checkCount(options.replicas ?? 1, `${ARGUMENT}.replicas`, 1),
    timeout: checkDuration(options.timeout, `${ARGUMENT}.timeout`, { min: 1 }),
    retries: checkCount(options.retries ?? 0, `${ARGUMENT}.retries`, 0),
  });
}
