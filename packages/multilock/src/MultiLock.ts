import { InvalidArgumentError, LockNotHeldError, type HeldLock } from '@deadbolt/core';
import { pause } from '@deadbolt/core/kit';
import { HeldLockGroup } from './HeldLockGroup.js';
import { LockGroup, memberOptions, type GroupAttempt, type MemberLock } from './LockGroup.js';
import { settleMembers } from './settleMembers.js';
import { WaitBudget } from './WaitBudget.js';

// How one round of a MultiLock acquisition ended: everything held, or the member that was taken
// elsewhere (`undefined` when the wait on it ran out) and for how long the round held others
// before it found out.
type Round = { readonly held: readonly HeldLock[] } | { readonly busy: number | undefined; readonly heldFor: number };

/**
 * Holds a set of locks all-or-nothing: Redisson's `RedissonMultiLock`. Members may be of any kind
 * (`Lock`, `FairLock`, read and write locks, ...), on one client or many, in any slots of a
 * cluster or on separate servers; each is taken by its own script.
 *
 * - It never holds a member while it waits for another, so MultiLocks over overlapping sets of
 *   locks, in any order, cannot deadlock. A round tries every member without waiting (in the
 *   order of their names, so that overlapping MultiLocks compete for the same lock first); when
 *   one is taken elsewhere it releases what it took, waits for that one alone (through the
 *   member's own pub/sub wait, holding nothing else) and tries the rest again. The wait time is
 *   one budget across all rounds, on the monotonic clock.
 * - With `leaseTime`, each member is taken for that lease and, once all are held, every earlier
 *   one is set to it again from then on (`HeldLock.extend`), so all end together. A member whose
 *   lease ran out before the last was taken makes the round fail and try again. Without it, the
 *   watchdog of each member's client keeps every member alive.
 * - The held group's signal aborts when any member is lost; its release is best effort on every
 *   member and reports the ones that failed.
 *
 * @example
 * ```ts
 * import { MultiLock } from '@deadbolt/multilock';
 * // ...
 * const transfer = new MultiLock([locks.lock('account:alice'), locks.lock('account:bob')]);
 *
 * // Both accounts or neither: taken together, released together.
 * await transfer.withLock(
 *   async (signal, held) => {
 *     console.log(`holding ${held.members.length} locks, lost: ${signal.aborted}`);
 *   },
 *   { waitTime: 5_000 },
 * );
 * ```
 */
export class MultiLock extends LockGroup<HeldLockGroup> {
  // The member indexes by name: the order every round tries them in.
  readonly #order: readonly number[];

  /**
   * @param locks - the member locks; at least one, no two of them the same lock (the same name
   *   on the same client)
   * @throws `InvalidArgumentError` naming `locks` when it is empty, holds something other than a
   *   lock, or holds the same lock twice
   */
  constructor(locks: readonly MemberLock[]) {
    super(locks);
    const seen = new Set<string>();
    for (const lock of this.locks) {
      const key = `${lock.client.id}\n${lock.name}`;
      if (seen.has(key))
        throw new InvalidArgumentError('locks', `holds the lock "${lock.name}" twice on the same client`);
      seen.add(key);
    }
    this.#order = this.locks.map((_, index) => index).sort((a, b) => compare(this.locks[a]!.name, this.locks[b]!.name));
  }

  protected async acquireGroup(attempt: GroupAttempt): Promise<HeldLockGroup | null> {
    const budget = new WaitBudget(attempt.options.waitTime);
    let busy: number | undefined;
    for (;;) {
      const round = await this.#round(attempt, budget, busy);
      if ('held' in round)
        return new HeldLockGroup({
          owner: attempt.owner,
          members: round.held,
          needed: round.held.length,
          total: round.held.length,
        });
      if (round.busy === undefined || budget.exhausted) return null;
      busy = round.busy;
      // Two acquisitions that each took what the other needs next (the same name on two servers,
      // listed in opposite orders) would otherwise retry in step for ever: a random pause of up to
      // twice that holding time lets one of them through first.
      if (round.heldFor > 0)
        await pause(Math.random() * Math.min(2 * round.heldFor, budget.remaining()), attempt.options.signal);
    }
  }

  /**
   * One round: waits for the member `busy` (taken elsewhere last round) holding nothing, then
   * tries every other member without waiting. Gives back what it took unless it took everything.
   */
  async #round(attempt: GroupAttempt, budget: WaitBudget, busy: number | undefined): Promise<Round> {
    const taken: { readonly index: number; readonly held: HeldLock }[] = [];
    let firstTakenAt = 0;
    const failed = async (index: number | undefined): Promise<Round> => {
      const heldFor = taken.length === 0 ? 0 : performance.now() - firstTakenAt;
      await giveBack(taken);
      return { busy: index, heldFor };
    };
    try {
      for (const index of busy === undefined ? this.#order : [busy, ...this.#order.filter((i) => i !== busy)]) {
        const waitTime = index === busy ? budget.remaining() : 0;
        const held = await this.locks[index]!.tryAcquire(memberOptions(attempt, index, waitTime));
        if (!held) return await failed(index === busy ? undefined : index);
        if (taken.length === 0) firstTakenAt = performance.now();
        taken.push({ index, held });
      }
      const expired = await this.#trimLeases(taken, attempt.options.leaseTime);
      if (expired !== undefined) return await failed(expired);
    } catch (error) {
      await giveBack(taken);
      throw error;
    }
    return { held: taken.sort((a, b) => a.index - b.index).map(({ held }) => held) };
  }

  /**
   * Sets the lease of every member but the last taken to `leaseTime` from now, so all end
   * together. Resolves the index of a member that could not be extended, if any.
   */
  async #trimLeases(
    taken: readonly { readonly index: number; readonly held: HeldLock }[],
    leaseTime: number | undefined,
  ): Promise<number | undefined> {
    if (leaseTime === undefined) return undefined;
    const earlier = taken.slice(0, -1);
    const failures = await settleMembers(
      earlier.map(({ held }) => held),
      (held) => held.extend(leaseTime),
    );
    const [first] = failures;
    if (first === undefined) return undefined;
    // Anything but a lapsed lease (Redis unreachable, ...) is for the caller to see.
    if (!(first.error instanceof LockNotHeldError)) throw first.error;
    return earlier.find(({ held }) => held === first.member)?.index;
  }
}

/** Releases what a failed round took; it is not held by anyone who could use it, so failures are dropped. */
async function giveBack(taken: readonly { readonly held: HeldLock }[]): Promise<void> {
  await settleMembers(
    taken.map(({ held }) => held),
    (held) => held.release(),
  );
}

function compare(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
