import { LockLostError, LockNotHeldError, type HeldLock } from '@deadbolt/core';
import { checkDuration } from '@deadbolt/core/kit';
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
  // The listeners on the members' signals, taken off on release. (An `addEventListener` with a
  // `signal` option to remove them would cost ten times as much per member.)
  readonly #watching = new Map<HeldLock, () => void>();
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
    for (const member of this.#members) this.#watch(member);
    // A member may have been lost between its acquisition and now.
    this.#checkQuorum(this.#members.find((member) => member.signal.aborted));
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

  /** `true` once {@link HeldLockGroup.release} was called. */
  get released(): boolean {
    return this.#released;
  }

  /**
   * Releases every member at once, best effort: a member that fails does not keep the others
   * held. A member acquisition still in flight is given back when it grants, and waited for as
   * long as a member's release. Once called, the group counts as released whatever the outcome.
   *
   * @throws `LockNotHeldError` when called again
   * @throws {@link LockGroupError} listing every member that failed, when enough failed that the
   *   group could still keep others out: any member of a MultiLock, more than N minus the quorum
   *   of a RedLock over N deployments. Each failed member can be released again on its own.
   */
  async release(): Promise<void> {
    if (this.#released)
      throw new LockNotHeldError('This lock group was already released', { lockName: this.#members[0]?.name });
    this.#released = true;
    for (const [member, listener] of this.#watching) member.signal.removeEventListener('abort', listener);
    this.#watching.clear();
    const lockName = this.#members[0]?.name ?? '';
    const [failures] = await Promise.all([
      settleMembers(this.#members, (member) => member.release(), this.#memberTimeout),
      Promise.all(
        [...this.#pending].map((late) => withTimeout(late, this.#memberTimeout, lockName).catch(() => undefined)),
      ),
    ]);
    // Members left held beyond this many leave too few for anyone else to gather what the group needs.
    if (failures.length > this.#total - this.#needed) throw new LockGroupError('release', failures);
  }

  /**
   * Sets every member's lease to `leaseTime` from now, at once (a member the watchdog was renewing
   * keeps a fixed lease from then on). See `HeldLock.extend`.
   *
   * @throws `InvalidArgumentError` when `leaseTime` is not a positive whole number of milliseconds
   * @throws `LockNotHeldError` when the group was released or lost already
   * @throws {@link LockGroupError} when fewer members than the group needs could be extended
   */
  async extend(leaseTime: number): Promise<void> {
    checkDuration(leaseTime, 'leaseTime', { min: 1 });
    if (this.#released || this.signal.aborted) {
      throw new LockNotHeldError('This lock group is not held any more', {
        lockName: this.#members[0]?.name,
        cause: this.signal.reason,
      });
    }
    const members = [...this.#members];
    const failures = await settleMembers(members, (member) => member.extend(leaseTime), this.#memberTimeout);
    if (members.length - failures.length < this.#needed) throw new LockGroupError('extend', failures);
  }

  /** Releases the group unless it was released already. */
  async [Symbol.asyncDispose](): Promise<void> {
    if (!this.#released) await this.release();
  }

  #watch(member: HeldLock): void {
    const listener = () => this.#checkQuorum(member);
    this.#watching.set(member, listener);
    member.signal.addEventListener('abort', listener, { once: true });
  }

  #checkQuorum(lost: HeldLock | undefined): void {
    if (lost === undefined || this.signal.aborted) return;
    const live = this.#members.filter((member) => !member.signal.aborted).length;
    if (live >= this.#needed) return;
    const reason: unknown = lost.signal.reason;
    const why = reason instanceof Error ? `: ${reason.message}` : '';
    this.#controller.abort(
      new LockLostError(
        `Lock group lost member "${lost.name}"${why}; ${live} of ${this.#needed} needed members remain held`,
        {
          lockName: lost.name,
          cause: reason,
        },
      ),
    );
  }

  async #join(member: HeldLock): Promise<void> {
    if (this.#released || this.signal.aborted) {
      await member.release().catch(() => undefined);
      return;
    }
    this.#members.push(member);
    this.#watch(member);
  }
}
