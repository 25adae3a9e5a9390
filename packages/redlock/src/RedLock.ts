import { ClientClosedError, InvalidArgumentError, type HeldLock } from '@deadbolt/core';
import { attemptAlone, lockRuntime, type UnkeptHold } from '@deadbolt/core/kit';
import {
  LockGroup,
  memberOptions,
  pause,
  WaitBudget,
  withTimeout,
  type GroupAttempt,
  type MemberLock,
} from '@deadbolt/multilock';
import { HeldRedLock } from './HeldRedLock.js';
import { quorum, validityTime } from './quorum.js';
import { quorumRound, type RoundOutcome } from './quorumRound.js';
import { resolveRedLockOptions, type RedLockOptions, type ResolvedRedLockOptions } from './RedLockOptions.js';

/**
 * A lock held by a majority of independent Redis deployments: the Redlock algorithm, as
 * Redisson's `RedissonRedLock`. Give it one lock per deployment, each on a client of its own,
 * usually the same name everywhere: `new RedLock([a.lock('job'), b.lock('job'), c.lock('job')])`.
 * It stays safe while a minority of the deployments crash, restart empty or cannot be reached.
 *
 * - A round asks every deployment at once (one no-wait attempt each) and is decided as soon as a
 *   quorum (N/2 + 1) granted, or enough refused or failed that no quorum is possible; a
 *   deployment that does not answer within `nodeTimeout` counts as failed, so a dead one never
 *   costs more than that. A round that reaches the quorum counts only if the lock is still valid:
 *   its lease (the watchdog's without `leaseTime`) minus the time the round took (on the
 *   monotonic clock) minus a clock drift allowance (1% of the lease + 2 ms) must be positive.
 * - A round's attempts are bare: a member becomes a held lock (watchdog, signal, replica sync)
 *   only once a quorum granted.
 * - A failed round gives the lock back on every deployment, also on those that answered late:
 *   their grant is released when it arrives. Then it waits `retryDelay ± retryJitter` ms and
 *   tries again, until `waitTime` runs out (`tryAcquire`'s default 0 makes one round).
 * - Once held, each member is kept alive by the watchdog of its own client (or lives for
 *   `leaseTime`); the held lock's signal aborts when fewer than a quorum of members remain.
 *
 * @example
 * ```ts
 * import { RedLock } from '@deadbolt/redlock';
 * // ...
 * // One client per independent Redis server; the same lock name on each.
 * const job = new RedLock(clients.map((client) => client.lock('nightly-report')));
 *
 * const held = await job.tryAcquire({ leaseTime: 10_000 });
 * if (held) {
 *   try {
 *     console.log(`held by at least ${job.quorum} of ${clients.length} servers, valid for ${held.validity} ms`);
 *   } finally {
 *     await held.release();
 *   }
 * }
 * ```
 */
export class RedLock extends LockGroup<HeldRedLock> {
  /** How many deployments must grant: a strict majority of {@link LockGroup.locks}. */
  readonly quorum: number;
  /** The options in force, with defaults applied. */
  readonly options: ResolvedRedLockOptions;
  // The shortest watchdog lease among the members' clients: what a hold without leaseTime counts on.
  readonly #watchdogLease: number;

  /**
   * @param locks - one lock per independent deployment, each on its own client
   * @param options - see {@link RedLockOptions}
   * @throws `InvalidArgumentError` naming `locks` when it is empty, holds something other than a
   *   lock, or holds two locks of the same client; naming the option when an option is bad
   */
  constructor(locks: readonly MemberLock[], options?: RedLockOptions) {
    super(locks);
    if (new Set(this.locks.map((lock) => lock.client)).size !== this.locks.length) {
      throw new InvalidArgumentError(
        'locks',
        'holds two locks of the same client: a RedLock takes one lock per independent deployment, each on its own client',
      );
    }
    this.options = Object.freeze(resolveRedLockOptions(options));
    this.quorum = quorum(this.locks.length);
    this.#watchdogLease = Math.min(...this.locks.map((lock) => lockRuntime(lock.client).watchdogTimeout));
  }

  protected async acquireGroup(attempt: GroupAttempt): Promise<HeldRedLock | null> {
    const { leaseTime, signal, waitTime } = attempt.options;
    if (leaseTime !== undefined && validityTime(leaseTime, 0) <= 0) {
      throw new InvalidArgumentError(
        'options.leaseTime',
        `${leaseTime} ms leaves no validity after the clock drift allowance`,
      );
    }
    const budget = new WaitBudget(waitTime);
    for (;;) {
      const held = await this.#round(attempt);
      if (held) return held;
      const remaining = budget.remaining();
      if (remaining === 0) return null;
      await pause(Math.min(this.#retryPause(), remaining), signal);
    }
  }

  /** One round over every deployment; gives back everything unless it ends with a valid quorum. */
  async #round(attempt: GroupAttempt): Promise<HeldRedLock | null> {
    const { signal } = attempt.options;
    signal?.throwIfAborted();
    if (this.locks.filter((lock) => !lockRuntime(lock.client).closed).length < this.quorum)
      throw new ClientClosedError();
    const startedAt = performance.now();
    // Bare attempts: a member becomes a held lock (watchdog, signal, replica sync) only once a
    // quorum granted, so that a round costs its attempts and little else until it succeeds.
    const attempts = this.locks.map((lock, index) => attemptAlone(lock, memberOptions(attempt, index, 0)));
    const round = await quorumRound(attempts, this.quorum, this.options.nodeTimeout, signal);
    if (round.granted.length >= this.quorum && !signal?.aborted) {
      const held = await this.#keepQuorum(attempt, round, startedAt);
      if (held) return held;
    } else {
      await this.#giveBack(round.granted, round.pending, startedAt, signal);
    }
    signal?.throwIfAborted();
    // A member kind that refuses the options (a write lock and an owner ending in ":write") would
    // refuse them in every round.
    const refused = round.errors.find((error) => error instanceof InvalidArgumentError);
    if (refused) throw refused;
    return null;
  }

  // Keeps the grants of a round that reached the quorum, and holds the RedLock if a quorum of them
  // could be kept (replicas confirmed, when the clients sync them) in time and the lock is still
  // valid; else gives back everything the round took.
  async #keepQuorum(
    attempt: GroupAttempt,
    round: RoundOutcome<UnkeptHold<HeldLock>>,
    startedAt: number,
  ): Promise<HeldRedLock | null> {
    const { leaseTime, signal } = attempt.options;
    const keeping = round.granted.map((hold) => hold.keep());
    const kept = await quorumRound(keeping, this.quorum, this.#windowLeft(startedAt), signal);
    const validity = Math.floor(validityTime(leaseTime ?? this.#watchdogLease, performance.now() - startedAt));
    if (kept.granted.length >= this.quorum && validity > 0 && !signal?.aborted) {
      return new HeldRedLock({
        owner: attempt.owner,
        members: kept.granted,
        needed: this.quorum,
        total: this.locks.length,
        memberTimeout: this.options.nodeTimeout,
        // Grants that arrive after the quorum join the held lock.
        pending: [...kept.pending, ...round.pending.map((late) => late.then((hold) => hold?.keep() ?? null))],
        validity,
      });
    }
    await this.#giveBack(
      kept.granted.map(returnable),
      [...kept.pending.map((late) => late.then((held) => held && returnable(held))), ...round.pending],
      startedAt,
      signal,
    );
    return null;
  }

  // Gives back what a failed round took: what was granted at once (each release bounded by
  // nodeTimeout), and what is still in flight as it arrives, waited for until the round's
  // nodeTimeout is up (not after an abort: they are given back all the same).
  async #giveBack(
    granted: readonly Returnable[],
    inFlight: readonly Promise<Returnable | null>[],
    startedAt: number,
    signal: AbortSignal | undefined,
  ): Promise<void> {
    const window = signal?.aborted ? 0 : this.#windowLeft(startedAt);
    await Promise.all([
      ...granted.map((hold) =>
        withTimeout(hold.giveBack(), this.options.nodeTimeout, this.name).catch(() => undefined),
      ),
      ...inFlight.map((late) =>
        withTimeout(
          late.then(
            (hold) => hold?.giveBack(),
            () => undefined,
          ),
          window,
          this.name,
        ).catch(() => undefined),
      ),
    ]);
  }

  // What is left of a round's nodeTimeout.
  #windowLeft(startedAt: number): number {
    return Math.max(0, startedAt + this.options.nodeTimeout - performance.now());
  }

  #retryPause(): number {
    const { retryDelay, retryJitter } = this.options;
    return Math.max(0, Math.round(retryDelay + (Math.random() * 2 - 1) * retryJitter));
  }
}

/** Something a failed round took and gives back: a bare hold, or one already kept. */
interface Returnable {
  giveBack(): Promise<void>;
}

function returnable(held: HeldLock): Returnable {
  return {
    giveBack: () =>
      held.release().then(
        () => undefined,
        () => undefined,
      ),
  };
}
