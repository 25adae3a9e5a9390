import { InvalidArgumentError, RedisUnavailableError } from '../../errors/LockError.js';
import { HandoffReceiver, type Passed } from '../../handoff/HandoffReceiver.js';
import { ownerField } from '../../keys/lockKeys.js';
import { currentOwner } from '../../owner/ownerScope.js';
import type { CheckedAcquireOptions } from '../AcquireOptions.js';
import { acquisitionReport, type AcquisitionReport } from '../acquisitionReport.js';
import type { ChannelMark } from '../../pubsub/ChannelHub.js';
import type { UnkeptHold } from '../attemptAlone.js';
import type { HeldLock } from '../HeldLock.js';
import type { AttemptContext, WaitContext } from '../LockKind.js';
import { spinToAcquire } from '../spinToAcquire.js';
import { abortWins, closedWins, confirmOrGiveBack, runAttempt } from './giveBack.js';
import { LockHold } from './LockHold.js';
import type { LockSite } from './LockSite.js';
import { waitToAcquire } from './waitToAcquire.js';

/**
 * Where an acquisition stands: its attempts, then perhaps its wait, then keeping what it took
 * (closed? replicas?), and in the end held or given up.
 */
export type AcquisitionPhase = 'attempting' | 'waiting' | 'keeping' | 'held' | 'gaveUp';

// The phases each phase may go on to: a failure anywhere before the end gives up.
const NEXT: Readonly<Record<AcquisitionPhase, readonly AcquisitionPhase[]>> = {
  attempting: ['waiting', 'keeping', 'gaveUp'],
  waiting: ['keeping', 'gaveUp'],
  keeping: ['held', 'gaveUp'],
  held: [],
  gaveUp: [],
};

/**
 * One call to acquire a lock, from its first attempt to the held lock: its owner, what it tells
 * the client's listeners, its attempts, its wait (polling, or on the lock's channel while local
 * holders may pass it the lock), and the give-back rules: a hold nobody will keep goes back (an
 * abort or a close that raced it, replicas that did not confirm it, a late reply's).
 *
 * @typeParam Grant - what a successful attempt learns (see `LockKind`)
 * @typeParam Held - what the acquisition returns
 */
export class Acquisition<Grant, Held extends HeldLock> {
  /** The owner id the lock is taken for. */
  readonly owner: string;
  /** The owner field, `<clientId>:<owner>`. */
  readonly field: string;
  readonly #site: LockSite<Grant, Held>;
  readonly #options: CheckedAcquireOptions;
  readonly #wait: WaitContext;
  readonly #report: AcquisitionReport | undefined;
  #phase: AcquisitionPhase = 'attempting';

  /**
   * @param site - the lock
   * @param options - the checked options; without an owner, the enclosing `withLock` scope's, else a new one
   */
  constructor(site: LockSite<Grant, Held>, options: CheckedAcquireOptions) {
    const { runtime } = site;
    this.#site = site;
    this.#options = options;
    this.owner = options.owner ?? currentOwner(site.name) ?? runtime.newOwnerId();
    this.field = ownerField(runtime.clientId, this.owner);
    this.#wait = { field: this.field, lease: options.leaseTime ?? runtime.watchdogTimeout, waitTime: options.waitTime };
    this.#report = acquisitionReport(runtime.events, site.name, site.kind.kindName, this.owner);
  }

  /** Where the acquisition stands. */
  get phase(): AcquisitionPhase {
    return this.#phase;
  }

  /**
   * Takes the lock, waiting as the options say.
   *
   * @returns the held lock, or `null` when the wait ran out
   */
  async take(): Promise<Held | null> {
    try {
      return await this.#take();
    } catch (error) {
      this.#fail(error);
      throw error;
    }
  }

  /**
   * One bare attempt, for lock groups (see `attemptAlone`): the hold taken, to keep or give back,
   * or `null` when the lock is held by someone else.
   */
  async attemptAlone(): Promise<UnkeptHold<Held> | null> {
    this.#options.signal?.throwIfAborted();
    let outcome: Passed<Grant> | number;
    try {
      outcome = await this.#attempt();
    } catch (error) {
      this.#fail(error);
      throw error;
    }
    if (typeof outcome === 'number') {
      this.#report?.busy();
      this.#giveUp();
      return null;
    }
    const taken = outcome;
    return { keep: () => this.#keep(taken), giveBack: () => this.#giveBack(taken) };
  }

  // The one place the phase changes.
  #enter(next: AcquisitionPhase): void {
    if (!NEXT[this.#phase].includes(next)) throw new Error(`an acquisition cannot go from ${this.#phase} to ${next}`);
    this.#phase = next;
  }

  async #take(): Promise<Held | null> {
    const { waitTime, signal } = this.#options;
    const { runtime, kind } = this.#site;
    let taken: Passed<Grant> | undefined;
    try {
      // Most acquisitions find the lock free: their first attempt goes out before anything a wait
      // needs (a hand-off receiver, a subscription) is set up, unless this client holds off from
      // the lock after a run of local passes. While another owner of this client holds it, the
      // attempt would only learn the holder's TTL, at most the watchdog's lease: the waiter goes
      // straight to the wait, enlisted before that hold's release can look for a receiver.
      let first: Passed<Grant> | number | undefined;
      let firstMark: ChannelMark | undefined;
      if (!this.#holdingOff()) {
        signal?.throwIfAborted();
        if (!kind.backoff) firstMark = runtime.channelMark(kind.waitChannel(this.field));
        first = this.#heldLocally() ? runtime.watchdogTimeout : await this.#attempt();
      }
      if (typeof first === 'object') {
        taken = first;
        await abortWins(signal, () => this.#giveBack(first));
      } else {
        this.#enter('waiting');
        taken = await this.#waitFor(first, firstMark);
      }
    } finally {
      // A kind that queues its waiters takes one that leaves without the lock out of the queue,
      // once per acquisition.
      const { leave } = kind;
      if (!taken && waitTime > 0 && leave)
        await runtime.runOnce(leave(this.#wait, runtime.newHoldId())).catch(() => undefined);
    }
    if (taken) return this.#keep(taken);
    this.#giveUp();
    return null;
  }

  // Whether this client holds off from the lock now, after a run of local passes ended.
  #holdingOff(): boolean {
    const key = this.#site.receiving?.key;
    const handoffs = this.#site.runtime.localHandoffs;
    return key !== undefined && this.#options.waitTime > 0 && handoffs !== undefined && handoffs.holdOff(key) > 0;
  }

  // Whether a hold of this lock that the watchdog keeps stands in this client for another owner.
  #heldLocally(): boolean {
    const key = this.#site.receiving?.key;
    const handoffs = this.#site.runtime.localHandoffs;
    return key !== undefined && this.#options.waitTime > 0 && handoffs?.heldByAnother(key, this.field) === true;
  }

  // Waits for the lock after a first attempt found it held (`firstTtl`), or without one while the
  // client holds off: the hold taken or passed, or `undefined` when the wait ran out.
  #waitFor(firstTtl: number | undefined, firstMark: ChannelMark | undefined): Promise<Passed<Grant> | undefined> {
    const { runtime, kind, receiving } = this.#site;
    const { waitTime, signal } = this.#options;
    const report = this.#report;
    const onBusy = report && (() => report.busy());
    const giveBack = (taken: Passed<Grant>) => this.#giveBack(taken);
    const { backoff } = kind;
    // A kind without pub/sub polls: no subscription, no hand-off receiver. Nothing wakes a
    // polling waiter when the client closes: its next attempt finds out.
    if (backoff) {
      const attempt = () => {
        runtime.assertOpen();
        return this.#attempt();
      };
      return spinToAcquire({ backoff, waitTime, signal, firstTtl, attempt, giveBack, onBusy });
    }
    const handoffs = runtime.localHandoffs;
    const receiver =
      handoffs && receiving && waitTime > 0
        ? new HandoffReceiver(handoffs, receiving, this.field, this.#wait.lease, this.#options.leaseTime === undefined)
        : undefined;
    return waitToAcquire({
      join: (channel) => runtime.join(channel),
      receiver,
      channel: kind.waitChannel(this.field),
      waitTime,
      signal,
      firstTtl,
      firstMark,
      // Right after a run of local passes of this lock ended, other processes take the turn.
      holdOff: receiver && handoffs && receiving && (() => handoffs.holdOff(receiving.key)),
      attempt: () => this.#attempt(),
      giveBack,
      onBusy,
    });
  }

  // One attempt, with a hold id of its own: the hold it took, or how long to sleep (the holder's TTL).
  async #attempt(): Promise<Passed<Grant> | number> {
    const { runtime, kind, name } = this.#site;
    const wait = this.#wait;
    // Spelled out, not spread from `wait`: see fixedShapeKind.
    const attempt: AttemptContext = {
      field: wait.field,
      lease: wait.lease,
      waitTime: wait.waitTime,
      hold: runtime.newHoldId(),
    };
    const giveBack = () => this.#site.giveBack(attempt.field, attempt.hold);
    const acquiredAt = performance.now();
    let reply;
    try {
      reply = await runAttempt(runtime, kind.acquire(attempt), (late) => late.status === 'taken', giveBack);
    } catch (error) {
      // The request may have run before the connection failed (node-redis then rejects it without
      // sending it again): give back whatever it took. Releasing by this attempt's hold id touches
      // nothing else, and does nothing when it took nothing.
      if (error instanceof RedisUnavailableError) void giveBack();
      throw error;
    }
    switch (reply.status) {
      case 'taken':
        return { hold: attempt.hold, grant: reply.grant, acquiredAt };
      case 'heldByOther':
        return reply.ttl;
      case 'refused':
        throw (
          kind.refused?.(this.owner) ?? new InvalidArgumentError('owner', `lock "${name}" refused owner ${this.owner}`)
        );
    }
  }

  // A hold an attempt took (or was passed) becomes a held lock, unless the client closed or
  // replicas did not confirm it: then it goes back.
  async #keep(taken: Passed<Grant>): Promise<Held> {
    this.#enter('keeping');
    const site = this.#site;
    const giveBack = () => this.#giveBack(taken);
    try {
      await closedWins(site.runtime, giveBack);
      // With replica sync, an acquisition counts once replicas have it; an abort during the wait
      // still wins, as it does over an attempt in flight.
      await confirmOrGiveBack(site.runtime, site.name, this.#options.signal, giveBack);
      const held = site.kind.held(new LockHold(site, this.owner, this.field, this.#options, taken), taken.grant);
      this.#enter('held');
      // Only a local holder's hand-off passes a streak of local passes on.
      this.#report?.taken(taken.streak !== undefined);
      return held;
    } catch (error) {
      if (this.#phase === 'keeping') this.#enter('gaveUp');
      throw error;
    }
  }

  #giveBack(taken: Passed<Grant>): Promise<void> {
    taken.endStanding?.();
    return this.#site.giveBack(this.field, taken.hold);
  }

  // The wait ran out (or the one attempt found the lock held).
  #giveUp(): void {
    this.#enter('gaveUp');
    this.#report?.timedOut();
  }

  // The acquisition threw `error`: an abort, a close, a failure.
  #fail(error: unknown): void {
    if (this.#phase !== 'gaveUp' && this.#phase !== 'held') this.#enter('gaveUp');
    this.#report?.failed(error, this.#options.signal);
  }
}
