import { LockLostError, LockNotHeldError, RedisUnavailableError } from '../errors/LockError.js';
// eslint-disable-next-line @typescript-eslint/no-unused-vars -- imported for the TSDoc {@link InvalidArgumentError} only
import type { InvalidArgumentError } from '../errors/LockError.js';
import { checkDuration } from '../options/validate.js';
import { releaseOwner, retainOwner } from '../owner/generatedOwners.js';
import type { Renewal } from '../watchdog/RenewalScheduler.js';

/**
 * What a {@link HeldLock} holds on to: one successful acquisition, and the operations on the hold
 * it took. For lock kind authors: the acquisition makes it and gives it to the kind's `held`.
 */
export interface HoldHandle {
  /** The lock's name. */
  readonly name: string;
  /** The owner id (the part after `<clientId>:` in the owner field). */
  readonly owner: string;
  /** The lease in milliseconds, or `undefined` when the watchdog renews the lock. */
  readonly leaseTime: number | undefined;
  /** When the acquire was sent, on the monotonic clock (`performance.now()`). */
  readonly acquiredAt: number;
  /**
   * Has the watchdog keep the hold alive from `from` (monotonic ms) on, telling `onLost` when it
   * is found gone or cannot be renewed in time. With `until`, the hold has a fixed lease ending
   * then: the watchdog only guards it up to then, for a kind whose hash other parties' holds share
   * and may shorten (a read lock), and does nothing (`undefined`) for other kinds.
   */
  keepAlive(onLost: (error: LockLostError) => void, from: number, until?: number): Renewal | undefined;
  /**
   * Releases this one hold. Resolves `true` when it was released, `false` when it did not stand.
   * Called again on a retry; a repeat is harmless.
   */
  release(): Promise<boolean>;
  /**
   * Sets a lease of `leaseTime` ms from now on this hold; resolves `false` when it did not stand.
   * Each call is a new request: one sent later wins over one sent earlier, whatever the order in
   * which they reach Redis.
   */
  extend(leaseTime: number): Promise<boolean>;
  /**
   * Tells the client the hold was lost in a way only the held lock sees: its fixed lease ran out
   * while it was held, or an extend found it gone (the watchdog reports its own findings).
   */
  reportLost?(error: LockLostError): void;
}

/** Wraps a successful acquisition in a plain {@link HeldLock}: the `held` of most lock kinds. For lock kind authors. */
export function heldLock(hold: HoldHandle): HeldLock {
  return new HeldLock(hold);
}

/**
 * One acquisition of a lock, returned by `acquire` and `tryAcquire`. Release it exactly once,
 * best with `await using`:
 *
 * ```ts
 * {
 *   await using held = await report.acquire();
 *   console.log(`rendering the report as owner ${held.owner}`);
 * } // released here, also when the block throws
 * ```
 *
 * Its {@link HeldLock.signal} aborts with a {@link LockLostError} when the lock is lost while held
 * (the watchdog found it gone or could not reach Redis in time, or a fixed lease ran out), so
 * work can stop before it conflicts with the next holder.
 */
export class HeldLock implements AsyncDisposable {
  /** The lock's name. */
  readonly name: string;
  /** The owner id holding it; pass it as `owner` to re-enter from elsewhere. */
  readonly owner: string;
  readonly #controller = new AbortController();
  readonly #hold: HoldHandle;
  #leaseTime: number | undefined;
  #renewal: Renewal | undefined;
  #leaseTimer: NodeJS.Timeout | undefined;
  // When the fixed lease ends on the monotonic clock; undefined while the watchdog renews.
  #leaseEnd: number | undefined;
  // The earliest end an extend whose reply has not come, or never came, may have set, and the
  // timer that loses the hold then.
  #possibleEnd: { readonly at: number; readonly timer: NodeJS.Timeout } | undefined;
  // The last extend in flight, settled either way: the next one waits for it.
  #extending: Promise<unknown> | undefined;
  #released = false;
  // Set once a release starts: from then on nothing may extend or renew the lease.
  #releasing = false;
  // Whether this hold still counts as a use of its owner (see retainOwner).
  #ownerInUse = true;

  /** For lock kind authors: wraps a successful acquisition and starts keeping it alive. */
  constructor(hold: HoldHandle) {
    this.name = hold.name;
    this.owner = hold.owner;
    this.#hold = hold;
    if (hold.leaseTime === undefined) {
      this.#renewal = hold.keepAlive((error) => this.#lose(error), hold.acquiredAt);
    } else {
      this.#startLease(hold.leaseTime, hold.acquiredAt);
    }
    // While this hold stands, its generated owner may be passed back as `owner` to join it.
    retainOwner(hold.owner);
  }

  /** The fixed lease in milliseconds, or `undefined` while the watchdog keeps the lock alive. */
  get leaseTime(): number | undefined {
    return this.#leaseTime;
  }

  /** Aborts with a {@link LockLostError} when the lock is lost while held. */
  get signal(): AbortSignal {
    return this.#controller.signal;
  }

  /** `true` once released. */
  get released(): boolean {
    return this.#released;
  }

  /**
   * Releases this hold; the owner's last hold frees the lock and wakes a waiter, or, for a kind
   * that hands off locally, passes the lock to a task of the same client that waits for it (the
   * client option `localHandoff`). Renewal stops before the release is sent, so a renewal can
   * never outlive it.
   *
   * @throws {@link LockNotHeldError} when already released, or when the lock was lost (its lease
   *   ran out or it was force-unlocked): nothing was changed in Redis.
   * @throws {@link RedisUnavailableError} when Redis could not be reached (or another failure of the
   *   call); calling again is safe. The release may have run, so the signal aborts: the lock may
   *   be another's already.
   */
  async release(): Promise<void> {
    if (this.#released)
      throw new LockNotHeldError(`Lock "${this.name}" was already released by this hold`, { lockName: this.name });
    this.#releasing = true;
    this.#stopKeepingAlive();
    // A failed call may have run, so the hold is taken as gone; it stays releasable: a retry names
    // the same hold, whose marker makes it harmless if the first call did run.
    let held: boolean;
    try {
      held = await this.#hold.release();
    } catch (error) {
      // Its owner stays joinable: the hold may still be released by a retry.
      if (error instanceof RedisUnavailableError) {
        this.#controller.abort(
          new LockLostError(`The release of lock "${this.name}" may have run: its outcome is unknown`, {
            lockName: this.name,
            cause: error,
          }),
        );
      }
      throw error;
    }
    this.#released = true;
    this.#endOwnerUse();
    if (!held) {
      throw new LockNotHeldError(
        `Lock "${this.name}" is not held by owner ${this.owner}: its lease ran out or it was force-unlocked`,
        {
          lockName: this.name,
        },
      );
    }
  }

  /**
   * Sets this hold's lease to `leaseTime` from now, and for a hold the watchdog was renewing, a
   * fixed lease from now on (renewal stops); the signal then aborts when it ends. The lease in
   * Redis belongs to the lock, and holds of one owner share it, so it is never shortened below
   * what another hold believes: the owner's only hold gets exactly `leaseTime` (a renewal sent
   * before the extend that reaches Redis after it leaves the new lease alone, and so does an
   * earlier extend arriving late), while other holds of the owner (re-entries) stand the lock is
   * only lengthened, and a read lock, whose hash other owners' holds share, is only ever
   * lengthened. node-redlock's `extend`; what a MultiLock uses to trim its members' leases.
   *
   * @param leaseTime - the new lease in milliseconds, at least 1
   * @throws {@link InvalidArgumentError} when `leaseTime` is not a positive finite number
   * @throws {@link LockNotHeldError} when released already or when the lock was lost (its signal
   *   aborts then, if it had not yet)
   * @throws {@link RedisUnavailableError} when Redis could not be reached, or did not answer in
   *   time. The extend may have run, so the hold takes the worse case: it keeps its lease (or its
   *   renewal, which leaves a lease an extend set alone) and also ends `leaseTime` after the call
   *   unless it believes in an earlier end already; its signal aborts at the earlier of the two.
   *   The same holds while the call waits for its reply. A later extend that succeeds sets the
   *   lease as usual.
   */
  async extend(leaseTime: number): Promise<void> {
    const lease = checkDuration(leaseTime, 'leaseTime', { min: 1 });
    // Sent at once when no other extend is in flight, else after the one before settles.
    const before = this.#extending;
    const extending = before ? before.then(() => this.#extendNow(lease)) : this.#extendNow(lease);
    const settled = extending.catch(() => undefined);
    this.#extending = settled;
    try {
      return await extending;
    } finally {
      if (this.#extending === settled) this.#extending = undefined;
    }
  }

  async #extendNow(lease: number): Promise<void> {
    if (this.#releasing || this.signal.aborted) {
      throw new LockNotHeldError(`Lock "${this.name}" is not held by this hold any more`, {
        lockName: this.name,
        cause: this.signal.reason,
      });
    }
    const sentAt = performance.now();
    // Until its reply comes, and for good if none does, the extend may have set `lease` from
    // about now: the hold may end then.
    this.#mayEndAt(sentAt + lease, lease);
    const extended = await this.#hold.extend(lease);
    // Released while the call was in flight: the release won, whatever the reply says.
    if (this.#releasing)
      throw new LockNotHeldError(`Lock "${this.name}" was released while it was being extended`, {
        lockName: this.name,
      });
    // Told it was lost while the call was in flight (the watchdog could not renew in time): that
    // news stands, and the hold is over; release() still gives back what Redis keeps.
    if (this.signal.aborted) {
      throw new LockNotHeldError(`Lock "${this.name}" was lost while it was being extended`, {
        lockName: this.name,
        cause: this.signal.reason,
      });
    }
    if (!extended) {
      const error = new LockLostError(`Lock "${this.name}" was gone when its lease was to be extended`, {
        lockName: this.name,
      });
      this.#lose(error);
      this.#hold.reportLost?.(error);
      throw new LockNotHeldError(error.message, { lockName: this.name, cause: error });
    }
    this.#stopKeepingAlive();
    this.#startLease(lease, sentAt);
  }

  /** Releases the hold unless it was released already. */
  async [Symbol.asyncDispose](): Promise<void> {
    if (!this.#released) await this.release();
  }

  // Loses the hold at `end` (monotonic) unless it ends earlier anyway, or an extend's reply sets
  // its lease first: an extend to `lease` whose outcome is not known may have ended it then.
  #mayEndAt(end: number, lease: number): void {
    if (
      (this.#leaseEnd !== undefined && this.#leaseEnd <= end) ||
      (this.#possibleEnd !== undefined && this.#possibleEnd.at <= end)
    )
      return;
    clearTimeout(this.#possibleEnd?.timer);
    const timer = setTimeout(
      () => {
        const error = new LockLostError(
          `Lock "${this.name}" may have ended: an extend to ${lease} ms whose outcome is not known may have set that lease`,
          { lockName: this.name },
        );
        this.#lose(error);
        this.#hold.reportLost?.(error);
      },
      Math.max(0, end - performance.now()),
    );
    timer.unref();
    this.#possibleEnd = { at: end, timer };
  }

  #startLease(leaseTime: number, from: number): void {
    this.#leaseTime = leaseTime;
    this.#leaseEnd = from + leaseTime;
    this.#renewal = this.#hold.keepAlive((error) => this.#lose(error), from, from + leaseTime);
    const left = from + leaseTime - performance.now();
    this.#leaseTimer = setTimeout(
      () => {
        const error = new LockLostError(`The ${leaseTime} ms lease of lock "${this.name}" ended`, {
          lockName: this.name,
        });
        this.#lose(error);
        this.#hold.reportLost?.(error);
      },
      Math.max(0, left),
    );
    this.#leaseTimer.unref();
  }

  #stopKeepingAlive(): void {
    this.#renewal?.cancel();
    this.#renewal = undefined;
    clearTimeout(this.#leaseTimer);
    this.#leaseTimer = undefined;
    clearTimeout(this.#possibleEnd?.timer);
    this.#possibleEnd = undefined;
  }

  #lose(error: LockLostError): void {
    this.#stopKeepingAlive();
    this.#endOwnerUse();
    this.#controller.abort(error);
  }

  #endOwnerUse(): void {
    if (!this.#ownerInUse) return;
    this.#ownerInUse = false;
    releaseOwner(this.owner);
  }
}
