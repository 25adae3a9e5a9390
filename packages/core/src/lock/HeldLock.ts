import { LockLostError, LockNotHeldError, RedisUnavailableError, type LockLossReason } from '../errors/LockError.js';
// eslint-disable-next-line @typescript-eslint/no-unused-vars -- imported for the TSDoc {@link InvalidArgumentError} only
import type { InvalidArgumentError } from '../errors/LockError.js';
import { checkDuration } from '../options/validate.js';
import { checkExtendOptions, type ExtendOptions } from './ExtendOptions.js';
import { OneAtATime } from './OneAtATime.js';
import { releaseOwner, retainOwner } from '../owner/generatedOwners.js';
import type { Renewal } from '../watchdog/RenewalScheduler.js';
import type { HoldHandle, HoldLimit } from './HoldHandle.js';
import { WATCH_LOSS } from './watchLoss.js';

// How a fixed lease ends: as the holder chose (a leaseTime, an extend), or at its maxHoldTime.
type LeaseEnding = Extract<LockLossReason, 'leaseEnded' | 'maxHoldTimeReached'>;

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
 * work can stop before it conflicts with the next holder; its release, and so the end of an
 * `await using` block, then rejects with that same error. Each hold ends in exactly one of the
 * client's `released` and `lockLost` events.
 */
export class HeldLock implements AsyncDisposable {
  /** The lock's name. */
  readonly name: string;
  /** The owner id holding it; pass it as `owner` to re-enter from elsewhere. */
  readonly owner: string;
  readonly #controller = new AbortController();
  // What the signal aborted with, and who to tell next (see watchLoss): known without the signal,
  // which Node creates only when asked for.
  #lostWith: LockLostError | undefined;
  #lossWatchers: Set<(error: LockLostError) => void> | undefined;
  readonly #hold: HoldHandle;
  #leaseTime: number | undefined;
  #renewal: Renewal | undefined;
  #leaseTimer: NodeJS.Timeout | undefined;
  // Turns a watchdog hold with a maxHoldTime into a fixed lease ending at its limit.
  #holdLimitTimer: NodeJS.Timeout | undefined;
  // When the fixed lease ends on the monotonic clock; undefined while the watchdog renews.
  #leaseEnd: number | undefined;
  // The earliest end an extend whose reply has not come, or never came, may have set, and the
  // timer that loses the hold then.
  #possibleEnd: { readonly at: number; readonly timer: NodeJS.Timeout } | undefined;
  // The last extend in flight, settled either way: the next one waits for it.
  #extending: Promise<unknown> | undefined;
  #released = false;
  // A second release waits for the one in flight, then finds it done.
  readonly #releases = new OneAtATime();
  // What a release whose outcome is unknown aborted the signal with: a retry that learns the
  // release went through still resolves.
  #releaseUnknown: LockLostError | undefined;
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
      if (hold.holdLimit) this.#limitHold(hold.holdLimit, hold.acquiredAt);
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

  /**
   * `true` while the watchdog keeps this hold alive: it was acquired without `leaseTime`, no
   * extend has set a fixed lease since (nor its `maxHoldTime`), and it was neither lost nor
   * released. {@link HeldLock.extend} then needs `stopWatchdog: true`.
   */
  get keptByWatchdog(): boolean {
    return this.#leaseTime === undefined && !this.#releasing && this.#lostWith === undefined;
  }

  /** Aborts with a {@link LockLostError} when the lock is lost while held. */
  get signal(): AbortSignal {
    return this.#controller.signal;
  }

  /** `true` once a release completed: it released the hold, or found it lost. */
  get released(): boolean {
    return this.#released;
  }

  /**
   * Releases this hold; the owner's last hold frees the lock and wakes a waiter, or, for a kind
   * that hands off locally, passes the lock to a task of the same client that waits for it (the
   * client option `localHandoff`). Renewal stops before the release is sent, so a renewal can
   * never outlive it. Every kind's held things release alike: resolves once released, rejects
   * with `LockLostError` for a hold that was lost, and with `LockNotHeldError` when called again.
   * A second call while one is in flight waits for it.
   *
   * @throws {@link LockLostError} when the hold was lost: its signal had aborted (the error is its
   *   `reason`), or the release found it gone (its signal aborts with the error then). What Redis
   *   still kept of it is released all the same.
   * @throws {@link LockNotHeldError} when this hold was released (or found lost) already: nothing
   *   was sent.
   * @throws {@link RedisUnavailableError} when Redis could not be reached (or another failure of the
   *   call); calling again is safe, and resolves when the release turns out to have gone through.
   *   The release may have run, so the signal aborts (reason `outcomeUnknown`): the lock may be
   *   another's already.
   */
  release(): Promise<void> {
    return this.#releases.run(() => {
      if (this.#released)
        throw new LockNotHeldError(`Lock "${this.name}" was already released by this hold`, { lockName: this.name });
      return this.#releaseNow();
    });
  }

  async #releaseNow(): Promise<void> {
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
        this.#releaseUnknown ??= new LockLostError(
          `The release of lock "${this.name}" may have run: its outcome is unknown`,
          { lockName: this.name, cause: error, reason: 'outcomeUnknown' },
        );
        this.#abort(this.#releaseUnknown);
      }
      throw error;
    }
    this.#released = true;
    this.#endOwnerUse();
    const lost = this.#lostWith;
    if (held && lost === undefined) {
      this.#hold.reportReleased?.();
      return;
    }
    // Lost before the release, or retried after one whose outcome was unknown: that loss was
    // reported, and only a retry that finds the release went through resolves.
    if (lost !== undefined) {
      if (held && lost === this.#releaseUnknown) return;
      throw lost;
    }
    const gone = new LockLostError(
      `Lock "${this.name}" was gone when it was released: it expired, was force-unlocked or evicted`,
      { lockName: this.name, reason: 'gone' },
    );
    this.#abort(gone);
    throw gone;
  }

  /**
   * Sets this hold's lease to `leaseTime` from now. A hold the watchdog keeps
   * ({@link HeldLock.keptByWatchdog}) gets a fixed lease from now on (renewal stops for good, and
   * its `maxHoldTime`, if any, no longer applies), so it must say so with `stopWatchdog: true`;
   * the signal then aborts when the lease ends. The lease in
   * Redis belongs to the lock, and holds of one owner share it, so it is never shortened below
   * what another hold believes: the owner's only hold gets exactly `leaseTime` (a renewal sent
   * before the extend that reaches Redis after it leaves the new lease alone, and so does an
   * earlier extend arriving late), while other holds of the owner (re-entries) stand the lock is
   * only lengthened, and a read lock, whose hash other owners' holds share, is only ever
   * lengthened. node-redlock's `extend`; what a MultiLock uses to trim its members' leases.
   *
   * @param leaseTime - the new lease in milliseconds, at least 1
   * @param options - `stopWatchdog: true` to extend a hold the watchdog keeps
   * @throws {@link InvalidArgumentError} when `leaseTime` is not a positive finite number, or
   *   naming `options.stopWatchdog` when the watchdog keeps the hold and it is not `true`: nothing
   *   is sent
   * @throws {@link LockLostError} when the hold was lost, as {@link HeldLock.release} does: its
   *   signal had aborted (the error is its `reason`), or the extend found it gone (its signal
   *   aborts with the error then)
   * @throws {@link LockNotHeldError} when this hold was released, or a release of it started
   * @throws {@link RedisUnavailableError} when Redis could not be reached, or did not answer in
   *   time. The extend may have run, so the hold takes the worse case: it keeps its lease (or its
   *   renewal, which leaves a lease an extend set alone) and also ends `leaseTime` after the call
   *   unless it believes in an earlier end already; its signal aborts at the earlier of the two.
   *   The same holds while the call waits for its reply. A later extend that succeeds sets the
   *   lease as usual.
   */
  async extend(leaseTime: number, options?: ExtendOptions): Promise<void> {
    const lease = checkDuration(leaseTime, 'leaseTime', { min: 1 });
    checkExtendOptions(options, this.keptByWatchdog);
    return this.#queueExtend(lease, 'leaseEnded');
  }

  async #queueExtend(lease: number, ending: LeaseEnding): Promise<void> {
    // Sent at once when no other extend is in flight, else after the one before settles.
    const before = this.#extending;
    const extending = before ? before.then(() => this.#extendNow(lease, ending)) : this.#extendNow(lease, ending);
    const settled = extending.catch(() => undefined);
    this.#extending = settled;
    try {
      return await extending;
    } finally {
      if (this.#extending === settled) this.#extending = undefined;
    }
  }

  async #extendNow(lease: number, ending: LeaseEnding): Promise<void> {
    const refused = this.#refusal();
    if (refused) throw refused;
    const sentAt = performance.now();
    // Until its reply comes, and for good if none does, the extend may have set `lease` from
    // about now: the hold may end then.
    this.#mayEndAt(sentAt + lease, lease);
    const extended = await this.#hold.extend(lease);
    // Released while the call was in flight (the release won, whatever the reply says), or told
    // it was lost (the watchdog could not renew in time): that news stands, and the hold is over;
    // release() still gives back what Redis keeps.
    const overtaken = this.#refusal();
    if (overtaken) throw overtaken;
    if (!extended) {
      const error = new LockLostError(`Lock "${this.name}" was gone when its lease was to be extended`, {
        lockName: this.name,
        reason: 'gone',
      });
      this.#lose(error);
      throw error;
    }
    this.#stopKeepingAlive();
    this.#startLease(lease, sentAt, ending);
  }

  // Why a call on this hold is refused: a release of it started (LockNotHeldError), or it was lost
  // (its LockLostError, which release() rejects with too).
  #refusal(): LockNotHeldError | LockLostError | undefined {
    if (this.#releasing)
      return new LockNotHeldError(`Lock "${this.name}" was released by this hold`, { lockName: this.name });
    return this.#lostWith;
  }

  // From `renewedLease` before the limit on, a renewal would keep the lease past it: then the hold
  // gets a fixed lease ending at the limit, set as an extend sets one (its failures end the hold
  // as an extend's do).
  #limitHold({ maxHoldTime, renewedLease }: HoldLimit, acquiredAt: number): void {
    const limit = acquiredAt + maxHoldTime;
    this.#holdLimitTimer = setTimeout(
      () => {
        this.#holdLimitTimer = undefined;
        const lease = Math.max(1, Math.floor(limit - performance.now()));
        this.#queueExtend(lease, 'maxHoldTimeReached').catch(() => undefined);
      },
      Math.max(0, limit - renewedLease - performance.now()),
    );
    this.#holdLimitTimer.unref();
  }

  /** Releases the hold unless it was released already. */
  async [Symbol.asyncDispose](): Promise<void> {
    if (!this.#released) await this.release();
  }

  /** For lock groups: see `watchLoss` in `@deadbolt/core/kit`. */
  [WATCH_LOSS](onLost: (error: LockLostError) => void): () => void {
    if (this.#lostWith) {
      onLost(this.#lostWith);
      return () => undefined;
    }
    const watchers = (this.#lossWatchers ??= new Set());
    watchers.add(onLost);
    return () => watchers.delete(onLost);
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
          { lockName: this.name, reason: 'outcomeUnknown' },
        );
        this.#lose(error);
      },
      Math.max(0, end - performance.now()),
    );
    timer.unref();
    this.#possibleEnd = { at: end, timer };
  }

  #startLease(leaseTime: number, from: number, ending: LeaseEnding = 'leaseEnded'): void {
    this.#leaseTime = leaseTime;
    this.#leaseEnd = from + leaseTime;
    this.#renewal = this.#hold.keepAlive((error) => this.#lose(error), from, from + leaseTime);
    const left = from + leaseTime - performance.now();
    this.#leaseTimer = setTimeout(
      () => {
        const message =
          ending === 'maxHoldTimeReached'
            ? `Lock "${this.name}" was held for its maxHoldTime: the watchdog let its lease end`
            : `The ${leaseTime} ms lease of lock "${this.name}" ended`;
        const error = new LockLostError(message, { lockName: this.name, reason: ending });
        this.#lose(error);
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
    clearTimeout(this.#holdLimitTimer);
    this.#holdLimitTimer = undefined;
    clearTimeout(this.#possibleEnd?.timer);
    this.#possibleEnd = undefined;
  }

  #lose(error: LockLostError): void {
    this.#stopKeepingAlive();
    this.#endOwnerUse();
    this.#abort(error);
  }

  // Aborts the signal (the first error stands, as for any AbortController), tells the watchers,
  // and reports the loss: the one event that ends this hold (a release after it reports nothing).
  #abort(error: LockLostError): void {
    if (this.#lostWith) return;
    this.#lostWith = error;
    this.#controller.abort(error);
    const watchers = this.#lossWatchers;
    this.#lossWatchers = undefined;
    watchers?.forEach((onLost) => onLost(error));
    this.#hold.reportLost?.(error);
  }

  #endOwnerUse(): void {
    if (!this.#ownerInUse) return;
    this.#ownerInUse = false;
    releaseOwner(this.owner);
  }
}
