import { call, checkDuration, checkOptions, heldLock, lockCommands, type LockKind } from '@deadbolt/core/kit';
import { LockBase, type LockHost } from '@deadbolt/core';
import { fairAcquire } from './commands/fairAcquire.js';
import { fairForceRelease } from './commands/fairForceRelease.js';
import { fairLeave } from './commands/fairLeave.js';
import { fairRelease } from './commands/fairRelease.js';
import { fairLockKeys, type FairLockKeys } from './fairLockKeys.js';

/** Options of a {@link FairLock}. Every time is in milliseconds. */
export interface FairLockOptions {
  /**
   * How long a queued waiter may go unseen before the waiters behind it skip it as dead:
   * Redisson's `fairLockWaitTimeout` (its `threadWaitTime`). A waiter's deadline is the deadline
   * of the waiter ahead of it plus this; an acquisition with a finite `waitTime` uses its wait
   * time instead. A waiter at the head of the queue of a free lock gets at most this long to take
   * it. Give every client of one lock, Java and Node alike, the same value.
   * Default 300 000 (5 minutes), at least 1.
   */
  waiterTimeout?: number;
}

const DEFAULT_WAITER_TIMEOUT = 300_000;
const KNOWN_OPTIONS = ['waiterTimeout'] as const;

/**
 * A reentrant distributed lock that grants in arrival order, across processes and clients:
 * Redisson's `RedissonFairLock`, stored in its layout so that Java services using Redisson and
 * Node services using Deadbolt share one queue on the same name.
 *
 * Everything {@link LockBase} offers works as on the plain `Lock` (owners, reentrancy, the
 * watchdog, `withLock`, `await using`, queries, AbortSignal). What differs is waiting:
 *
 * - A waiter joins a queue (`redisson_lock_queue:{name}`) at its first attempt and is granted
 *   the lock only when it is at the head. A no-wait `tryAcquire` takes a free lock only when
 *   nobody queues, and never joins the queue.
 * - A release wakes exactly the waiter at the head, on that waiter's own channel
 *   (`redisson_lock__channel:{name}:<clientId>:<ownerId>`), not everyone: the channel a
 *   Redisson thread waits on, and the one Redisson's unlock publishes on for the head, so each
 *   side's release wakes the other side's head waiter. Taking the lock tells the waiter behind,
 *   which tries once to learn the new lease.
 * - No waiter relies on messages alone, because Redisson's grant tells nobody and an expiring
 *   lease publishes nothing. A waiter that is not woken sleeps at most until the lease it saw
 *   ends, as a Redisson waiter does; while the lock is free but another waiter is first (a
 *   Redisson head may take it silently) it looks again within half a second (Redisson's own
 *   waiters retry without pause there); and it checks in at least every third of its allowance.
 * - Each waiter has a deadline (`redisson_lock_timeout:{name}`): the deadline of the waiter ahead
 *   (or the lock's expiry) plus its allowance, which is its `waitTime` when finite, else
 *   {@link FairLockOptions.waiterTimeout}. A live waiter checks in at least every third of its
 *   allowance (or of `waiterTimeout`, when shorter), which keeps its deadline ahead, so among
 *   Deadbolt clients it never loses its place however long it waits (a Redisson grant moves
 *   every deadline closer by the granted waiter's wait, Redisson's rule). A waiter that dies
 *   silently is dropped once its deadline passes while it is at the head, and the head of a
 *   free lock gets at most `waiterTimeout` to take it, so a dead waiter holds the queue up by
 *   `waiterTimeout` at most.
 * - A waiter that gives up (wait time ran out, signal aborted, Redis error) leaves the queue at
 *   once, and the deadlines behind it move up.
 * - `forceUnlock` wakes the waiter at the head of the queue; the queue itself stays.
 * - A lock that expires by its lease while others wait is taken by the head waiter when it
 *   expires, not after the head's deadline.
 * - Granting the lock to the head costs the same few Redis commands however long the queue is
 *   (Redisson moves every deadline on each grant instead); only a waiter giving up walks the
 *   queue behind it.
 * - As with Redisson, the queue keys have no TTL: a dead waiter's entry stays until a later
 *   attempt or release finds its deadline passed at the head (a Java waiter's deadline may lie
 *   minutes beyond any that Deadbolt wrote, which a TTL would cut short). The keys vanish when
 *   their last entry leaves.
 *
 * Deadlines are wall-clock times (`Date.now()`) of the client that writes them, as Redisson
 * writes `System.currentTimeMillis()`, and every client compares them with its own clock. Keep
 * the clocks of all clients of one lock in sync (NTP): a client whose clock runs ahead of a
 * waiter's by a good part of that waiter's allowance would drop it as dead while it is alive.
 *
 * @example
 * ```ts
 * import { FairLock } from '@deadbolt/fair-lock';
 * // ...
 * const printer = new FairLock(locks, 'printer');
 * const busy = await printer.acquire();
 *
 * // Four jobs ask one after another while the printer is busy; they queue in Redis.
 * const jobs = ['A', 'B', 'C', 'D'].map(async (job, i) => {
 *   await sleep(i * 50);
 *   await printer.withLock(async () => {
 *     console.log(`job ${job} prints`);
 *   });
 * });
 *
 * await sleep(400);
 * await busy.release();
 * await Promise.all(jobs); // prints A, B, C, D: arrival order
 * ```
 */
export class FairLock extends LockBase {
  /** The waiter deadline in force, in milliseconds (see {@link FairLockOptions.waiterTimeout}). */
  readonly waiterTimeout: number;
  /** The keys and channels of this lock. */
  readonly keys: FairLockKeys;

  /**
   * @param client - the `LockClient` to use
   * @param name - the lock's name; a name with `{braces}` is its own cluster hash tag
   * @param options - see {@link FairLockOptions}
   * @throws {@link @deadbolt/core!index.InvalidArgumentError} when `name` is not a non-empty string, or for an unknown
   *   option or an invalid `options.waiterTimeout`
   */
  constructor(client: LockHost, name: string, options?: FairLockOptions) {
    let waiterTimeout = DEFAULT_WAITER_TIMEOUT;
    super(client, name, (checkedName) => {
      waiterTimeout = resolveWaiterTimeout(options);
      return fairLockKind(fairLockKeys(checkedName), waiterTimeout);
    });
    this.waiterTimeout = waiterTimeout;
    this.keys = fairLockKeys(this.name);
  }
}

/**
 * The fair lock's declaration: the reentrant lock's hash, a queue of waiters in arrival order
 * with their deadlines, and a channel per waiter, in Redisson's layout.
 *
 * @param keys - the lock's keys and channels
 * @param waiterTimeout - see {@link FairLockOptions.waiterTimeout}
 */
export function fairLockKind(keys: FairLockKeys, waiterTimeout: number): LockKind {
  const lock = { keys, waiterTimeout };
  // A waiter's allowance: its wait time when finite, else the lock's waiterTimeout.
  const allowanceOf = (waitTime: number) => (Number.isFinite(waitTime) ? waitTime : waiterTimeout);
  return {
    kindName: 'fair',
    // A no-wait attempt (allowance 0) never joins the queue.
    acquire: ({ field, hold, lease, waitTime }) =>
      call(fairAcquire, { ...lock, field, hold, lease, allowance: waitTime === 0 ? 0 : allowanceOf(waitTime) }),
    release: (field, hold) => call(fairRelease, { ...lock, field, hold }),
    forceRelease: ({ request, holders }) => call(fairForceRelease, { ...lock, request, holders }),
    leave: ({ field, waitTime }, request) =>
      call(fairLeave, { ...lock, field, allowance: allowanceOf(waitTime), request }),
    extend: (field, hold, lease, request) =>
      call(lockCommands.extend, { name: keys.lock, field, hold, lease, request }),
    state: (field) => call(lockCommands.state, { name: keys.lock, field }),
    renew: lockCommands.renew,
    waitChannel: (field) => keys.waiterChannel(field),
    held: heldLock,
  };
}

function resolveWaiterTimeout(options: FairLockOptions | undefined): number {
  const { waiterTimeout } = checkOptions<FairLockOptions>(options, KNOWN_OPTIONS);
  return waiterTimeout === undefined
    ? DEFAULT_WAITER_TIMEOUT
    : checkDuration(waiterTimeout, 'options.waiterTimeout', { min: 1 });
}
