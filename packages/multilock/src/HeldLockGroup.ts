import { LockLostError, LockNotHeldError, type ExtendOptions, type HeldLock } from '@deadbolt/core';
import { checkDuration, checkExtendOptions, watchLoss } from '@deadbolt/core/kit';
import { LockGroupError } from './LockGroupError.js';
import { settleMembers, withTimeout } from './settleMembers.js';

/** How a lock group describes one successful acquisition to {@link HeldLockGroup}. For lock group authors. */
export interface LockGroupHold {
  /** The owner id given to every member that had no owner of its own (from `options.owner` or an enclosing `withLock`). */
  readonly owner: string;
  /** The members held. */
  readonly members: readonly HeldLock[];
  /** How many members must stay held for the group to count as held: all of them for a MultiLock, a quorum for a RedLock. */
  readonly needed: number;
  /** How many member locks the group is made of, held or not (a RedLock's deployments). */
  readonly total: number;
  /** When set, a member that takes longer to release or extend counts as failed for it: a RedLock never waits on a dead node. */
  readonly memberTimeout?: number | undefined;
  /**
   * Member acquisitions still in flight. One that grants joins the group; one that grants after
   * the group was released or lost is released at once, and a release of the group waits for
   * that (up to `memberTimeout`).
   */
  readonly pending?: readonly Promise<HeldLock | null>[] | undefined;
}

/**
 * One acquisition of a group of locks (a `MultiLock`, a `RedLock`), returned by its `acquire` and
 * `tryAcquire`. Release it exactly once, best with `await using`:
 *
 * ```ts
 * {
 *   await using held = await transfer.acquire({ waitTime: 5_000, leaseTime: 10_000 });
 *   console.log(`every member's lease: ${held.members.map((member) => member.leaseTime).join(', ')} ms`);
 * } // every member released here, also when the block throws
 * ```
 *
 * Its {@link HeldLockGroup.signal} aborts with a `LockLostError` once too few members remain held:
 * for a MultiLock when any member is lost, for a RedLock when fewer than a quorum remain.
 */
export class HeldLockGroup implements AsyncDisposable {
  /**
   * The owner id of this acquisition: every member that had no owner of its own holds as it. Pass
   * it as `owner` to re-enter the same locks from elsewhere. Each member's own is on {@link HeldLockGroup.members}.
   */
  readonly owner: string;
  readonly #members: HeldLock[];
  readonly #needed: number;
  readonly #total: number;
  readonly #memberTimeout: number | undefined;
  readonly #controller = new AbortController();
  // Whether the signal aborted, known without it: Node creates a signal only when asked for, at a
  // cost of microseconds, which a group that is never lost need not pay.
  #lost = false;
  // The members found lost, known without their signals (see watchLoss).
  readonly #lostMembers = new Set<HeldLock>();
  // What stops watching each member, called on release.
  readonly #unwatch: (() => void)[] = [];
  // The acquisitions in flight, each settling once its grant joined the group or was given back.
  readonly #pending = new Set<Promise<void>>();
  #released = false;

  /** For lock group authors: wraps a successful acquisition of a group. */
  constructor(hold: LockGroupHold) {
    this.owner = hold.owner;
    this.#members = [...hold.members];
    this.#needed = hold.needed;
    this.#total = hold.total;
    this.#memberTimeout = hold.memberTimeout;
    // A member lost between its acquisition and now is reported as it is watched.
    for (const member of this.#members) this.#watch(member);
    for (const late of hold.pending ?? []) {
      const settled = late.then(
        (member) => (member ? this.#join(member) : undefined),
        () => undefined,
      );
      this.#pending.add(settled);
      void settled.then(() => this.#pending.delete(settled));
    }
  }

  /** The members' holds, in the order of the group's locks (late RedLock grants last). */
  get members(): readonly HeldLock[] {
    return [...this.#members];
  }

  /** Aborts with a `LockLostError` once too few members remain held (see the class). */
  get signal(): AbortSignal {
    return this.#controller.signal;
  }

  /**
   * `true` while the watchdog keeps the members alive: the group was taken without `leaseTime`, no
   * extend has set a fixed lease since, and it was neither lost nor released; {@link HeldLockGroup.extend} then needs
   * `stopWatchdog: true`.
   */
  get keptByWatchdog(): boolean {
    return !this.#released && !this.#lost && this.#members.some((member) => member.keptByWatchdog);
  }

  /** `true` once {@link HeldLockGroup.release} was called. */
  get released(): boolean {
    return this.#released;
  }

  /**
   * Releases every member at once, best effort: a member that fails does not keep the others
   * held. A member acquisition still in flight is given back when it grants, and waited for as
   * long as a member's release. Once called, the group counts as released whatever the outcome.
   * Releases as a `HeldLock` does: resolves once released, rejects with a `LockLostError` for a
   * group that was lost, and with `LockNotHeldError` when called again.
   *
   * @throws `LockLostError` when the group was lost: its signal had aborted (the error is its
   *   `reason`), or the release found so many members gone that too few had stood (its signal
   *   aborts with the error then). Members still held are released all the same.
   * @throws `LockNotHeldError` when called again
   * @throws {@link LockGroupError} listing every member that failed, when enough failed that the
   *   group could still keep others out: any member of a MultiLock, more than N minus the quorum
   *   of a RedLock over N deployments. Each failed member can be released again on its own. A lost
   *   group rejects with this rather than its `LockLostError` when some of those members could not
   *   be reached (they may still be held).
   */
  async release(): Promise<void> {
    if (this.#released)
      throw new LockNotHeldError('This lock group was already released', { lockName: this.#members[0]?.name });
    this.#released = true;
    for (const unwatch of this.#unwatch.splice(0)) unwatch();
    const lockName = this.#members[0]?.name ?? '';
    const [failures] = await Promise.all([
      settleMembers(this.#members, (member) => member.release(), this.#memberTimeout),
      Promise.all(
        [...this.#pending].map((late) => withTimeout(late, this.#memberTimeout, lockName).catch(() => undefined)),
      ),
    ]);
    // Members the release found gone count against what the group needs, as those lost before it
    // do; one whose release could not reach Redis may still be held.
    for (const { member, error } of failures) if (error instanceof LockLostError) this.#memberLost(member);
    const unreached = failures.some(({ error }) => !(error instanceof LockLostError));
    if (this.#lost && !unreached) throw this.signal.reason;
    // Members left held beyond this many leave too few for anyone else to gather what the group
    // needs: they are named, lost group or not, so that they can be released again.
    if (failures.length > this.#total - this.#needed) throw new LockGroupError('release', failures);
    if (this.#lost) throw this.signal.reason;
  }

  /**
   * Sets every member's lease to `leaseTime` from now, at once. Members the watchdog keeps
   * ({@link HeldLockGroup.keptByWatchdog}) get a fixed lease from then on, so the call must say so
   * with `stopWatchdog: true`. See `HeldLock.extend`.
   *
   * @throws `InvalidArgumentError` when `leaseTime` is not a positive whole number of milliseconds,
   *   or naming `options.stopWatchdog` when the watchdog keeps the members and it is not `true`
   * @throws `LockLostError` when the group was lost already (its signal's `reason`), as `release` does
   * @throws `LockNotHeldError` when the group was released already
   * @throws {@link LockGroupError} when fewer members than the group needs could be extended
   */
  async extend(leaseTime: number, options?: ExtendOptions): Promise<void> {
    checkDuration(leaseTime, 'leaseTime', { min: 1 });
    checkExtendOptions(options, this.keptByWatchdog);
    if (this.#released)
      throw new LockNotHeldError('This lock group was released', { lockName: this.#members[0]?.name });
    if (this.#lost) throw this.signal.reason;
    const members = [...this.#members];
    const stopWatchdog = { stopWatchdog: true };
    const failures = await settleMembers(
      members,
      (member) => member.extend(leaseTime, stopWatchdog),
      this.#memberTimeout,
    );
    if (members.length - failures.length < this.#needed) throw new LockGroupError('extend', failures);
  }

  /** Releases the group unless it was released already. */
  async [Symbol.asyncDispose](): Promise<void> {
    if (!this.#released) await this.release();
  }

  // Without a listener on the member's signal (see watchLoss).
  #watch(member: HeldLock): void {
    this.#unwatch.push(watchLoss(member, () => this.#memberLost(member)));
  }

  // Counts `lost` out, and aborts the group's signal once too few members stand.
  #memberLost(lost: HeldLock): void {
    this.#lostMembers.add(lost);
    if (this.#lost) return;
    const live = this.#members.length - this.#lostMembers.size;
    if (live >= this.#needed) return;
    const reason: unknown = lost.signal.reason;
    const why = reason instanceof Error ? `: ${reason.message}` : '';
    this.#lost = true;
    this.#controller.abort(
      new LockLostError(
        `Lock group lost member "${lost.name}"${why}; ${live} of ${this.#needed} needed members remain held`,
        {
          lockName: lost.name,
          cause: reason,
          reason: reason instanceof LockLostError ? reason.reason : 'gone',
        },
      ),
    );
  }

  async #join(member: HeldLock): Promise<void> {
    if (this.#released || this.#lost) {
      await member.release().catch(() => undefined);
      return;
    }
    this.#members.push(member);
    this.#watch(member);
  }
}
