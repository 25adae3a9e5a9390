import { InvalidArgumentError, LockWaitTimeoutError, RedisUnavailableError } from '../errors/LockError.js';
import { lockHolders } from '../commands/lockHolders.js';
import type { AcquireReply, LockState } from '../commands/replies.js';
import { call } from '../scripts/Command.js';
import { HandoffReceiver, type Passed, type ReceivingLock } from '../handoff/HandoffReceiver.js';
import type { HandoffStreak } from '../handoff/LocalHandoffs.js';
import { ownerField } from '../keys/lockKeys.js';
import { checkFunction, checkLockName, checkOwner } from '../options/validate.js';
import { currentOwner, runAsOwner } from '../owner/ownerScope.js';
import { coreRuntime, type CoreRuntime } from '../runtime/CoreRuntime.js';
import type { LockHost } from '../runtime/LockRuntime.js';
import { checkAcquireOptions, type AcquireOptions, type CheckedAcquireOptions } from './AcquireOptions.js';
import { checkForceUnlockOptions, type ForceUnlockOptions } from './ForceUnlockOptions.js';
import type { HeldLock, HoldDescription } from './HeldLock.js';
import { acquisitionReport, type AcquisitionReport } from './acquisitionReport.js';
import { ATTEMPT_ALONE, type UnkeptHold } from './attemptAlone.js';
import { LOCK_BRAND } from './isLock.js';
import { fixedShapeKind, type FixedShapeKind } from './fixedShapeKind.js';
import type { AttemptContext, LockKind, WaitContext } from './LockKind.js';
import { releaseAfter } from './releaseAfter.js';
import { spinToAcquire } from './spinToAcquire.js';
import { abortWins, waitToAcquire } from './waitToAcquire.js';

/**
 * A distributed lock of any kind: acquisition with and without waiting, `withLock`, owners and
 * reentrancy, the watchdog, replica sync, releases, force-unlock and the queries over Redisson's
 * hash layout, done once for every kind from the kind's {@link LockKind} declaration.
 * Applications use the kinds (`Lock`, `FairLock`, ...); a kind is a subclass that passes its
 * declaration.
 *
 * @typeParam Held - what an acquisition returns: {@link HeldLock}, or a subclass that carries
 *   more (a fenced lock's token)
 * @typeParam Grant - what a successful attempt learns (see {@link LockKind})
 */
export class LockBase<Held extends HeldLock = HeldLock, Grant = null> {
  /** Marks a lock across copies of `@deadbolt/core`; see `isLock`. */
  readonly [LOCK_BRAND] = true;
  /** The lock's name: the Redis key of its hash. */
  readonly name: string;
  /** The client this lock runs on. A MultiLock and a RedLock tell their members' deployments apart by it. */
  readonly client: LockHost;
  readonly #runtime: CoreRuntime;
  readonly #kind: FixedShapeKind<Grant, Held>;
  // What a waiter of this lock needs to be passed it by a local holder, for a kind with a hand-off.
  readonly #receiving: ReceivingLock<Grant> | undefined;

  /**
   * @param client - the `LockClient` to use
   * @param name - the lock's name; a name with `{braces}` is its own cluster hash tag
   * @param declare - the kind's declaration for a lock of this name
   * @throws {@link InvalidArgumentError} when `name` is not a non-empty string, or `client` not a `LockClient`
   */
  constructor(client: LockHost, name: string, declare: (name: string) => LockKind<Grant, Held>) {
    this.name = checkLockName(name);
    this.#runtime = coreRuntime(client);
    this.client = client;
    this.#kind = fixedShapeKind(declare(this.name));
    const { handOff } = this.#kind;
    this.#receiving = handOff && {
      runtime: this.#runtime,
      name: this.name,
      handOff,
      // Receivers are enlisted by kind (its hand-off script) and name: only a lock of the same kind passes to them.
      key: `${handOff.script.name}\n${this.name}`,
      giveBack: (field, hold) => this.#giveBack(field, hold),
    };
  }

  /**
   * Takes the lock, waiting as long as `options.waitTime` (default: no limit).
   *
   * @throws {@link LockWaitTimeoutError} when the wait time runs out
   * @throws the signal's reason when `options.signal` aborts
   * @throws {@link RedisUnavailableError}, {@link InvalidArgumentError}, `ClientClosedError`
   */
  async acquire(options?: AcquireOptions): Promise<Held> {
    const checked = checkAcquireOptions(options, Infinity);
    const held = await this.#acquire(checked);
    if (!held) throw new LockWaitTimeoutError(this.name, checked.waitTime);
    return held;
  }

  /**
   * Takes the lock if it can within `options.waitTime` (default 0: one attempt, no waiting).
   *
   * @returns the held lock, or `null` when the lock stayed taken
   * @throws the signal's reason when `options.signal` aborts
   * @throws {@link RedisUnavailableError}, {@link InvalidArgumentError}, `ClientClosedError`
   */
  async tryAcquire(options?: AcquireOptions): Promise<Held | null> {
    return this.#acquire(checkAcquireOptions(options, 0));
  }

  /**
   * Runs `fn` while holding the lock and releases it afterwards, also when `fn` throws.
   * Acquisitions inside `fn` that name no owner re-enter as this one's owner. `fn` gets a signal
   * that aborts when the lock is lost; stop writing when it does.
   *
   * @returns what `fn` returns
   * @throws what `fn` throws; else a `LockLostError` when the lock was lost while `fn` ran, even
   *   if `fn` returned normally (its work may have overlapped the next holder's); else what
   *   {@link LockBase.acquire} and {@link HeldLock.release} throw
   */
  async withLock<T>(fn: (signal: AbortSignal, held: Held) => T | Promise<T>, options?: AcquireOptions): Promise<T> {
    checkFunction(fn, 'fn');
    const held = await this.acquire(options);
    return releaseAfter(held, () => runAsOwner(this.name, held.owner, () => fn(held.signal, held)));
  }

  /**
   * Deletes the lock whoever holds it and wakes waiters as a release does. Holders learn it at
   * their next renewal or release. It frees exactly the holds there were when asked: the lock's
   * hash is read first (or taken from `options.holders`, what an operator was shown), and deleted
   * only while it is still that, so a lock released and taken by someone else in between stays
   * with its new holder; a copy of the request that arrives late, or twice, frees nothing. A kind
   * may narrow what it deletes (a read-write lock's halves delete only a lock held in their own
   * mode).
   *
   * @returns `true` when the lock was deleted; `false` when nobody held it, or it changed
   * @throws {@link RedisUnavailableError} when Redis could not be reached: the lock may or may not
   *   have been deleted
   */
  async forceUnlock(options?: ForceUnlockOptions): Promise<boolean> {
    const runtime = this.#runtime;
    runtime.assertOpen();
    const holders =
      checkForceUnlockOptions(options).holders ?? (await runtime.run(call(lockHolders, { name: this.name })));
    if (Object.keys(holders).length === 0) return false;
    // Counted once per request, so sent again while Redis is away: the caller learns the outcome where it can.
    return runtime.runOnce(this.#kind.forceRelease({ request: runtime.newHoldId(), holders }));
  }

  /** Whether anyone holds the lock. */
  async isLocked(): Promise<boolean> {
    return (await this.#state('')).ttl !== null;
  }

  /**
   * Whether `owner` holds the lock. Without `owner`, asks for the enclosing `withLock` scope's.
   *
   * @throws {@link InvalidArgumentError} when no owner is given outside a `withLock` scope
   */
  async isHeldBy(owner?: string): Promise<boolean> {
    return (await this.holdCount(owner)) > 0;
  }

  /**
   * How many times `owner` holds the lock (0 when not at all). Without `owner`, counts the
   * enclosing `withLock` scope's holds.
   *
   * @throws {@link InvalidArgumentError} when no owner is given outside a `withLock` scope
   */
  async holdCount(owner?: string): Promise<number> {
    return (await this.#state(this.#holdField(this.#fieldOf(owner)))).holds;
  }

  /**
   * How long until the lock expires, in milliseconds: `null` when nobody holds it, `Infinity`
   * when it never expires (set without a TTL by something other than Deadbolt).
   */
  async remainingTtl(): Promise<number | null> {
    return (await this.#state('')).ttl;
  }

  /**
   * One attempt to take or re-enter the lock: runs the kind's acquire; a reply that comes after
   * the call timed out took the lock for nobody, so that hold is given back at once.
   */
  protected tryAcquireOnce(attempt: AttemptContext): Promise<AcquireReply<Grant>> {
    return this.#runtime.run(this.#kind.acquire(attempt), (late) => {
      if (late.status === 'taken') this.#giveBack(attempt.field, attempt.hold);
    });
  }

  async #acquire(options: CheckedAcquireOptions): Promise<Held | null> {
    const runtime = this.#runtime;
    runtime.assertOpen();
    const owner = options.owner ?? currentOwner(this.name) ?? runtime.newOwnerId();
    const report = acquisitionReport(runtime.events, this.name, this.#kind.kindName, owner);
    if (!report) return this.#take(options, owner, undefined);
    return this.#take(options, owner, report).catch((error: unknown) => {
      report.failed(error, options.signal);
      throw error;
    });
  }

  // Takes the lock for `owner`, waiting as the options say: the held lock, or `null` when the wait ran out.
  async #take(
    options: CheckedAcquireOptions,
    owner: string,
    report: AcquisitionReport | undefined,
  ): Promise<Held | null> {
    const runtime = this.#runtime;
    const field = ownerField(runtime.clientId, owner);
    const wait: WaitContext = {
      field,
      lease: options.leaseTime ?? runtime.watchdogTimeout,
      waitTime: options.waitTime,
    };
    const key = this.#receiving?.key;
    const handoffs = key === undefined || options.waitTime <= 0 ? undefined : runtime.localHandoffs;
    // Most acquisitions find the lock free: their first attempt goes out before anything a wait
    // needs (a hand-off receiver, a subscription) is set up, unless this client holds off from the
    // lock after a run of local passes.
    let first: Passed<Grant> | number | undefined;
    let granted: Passed<Grant> | undefined;
    try {
      if (!(handoffs && key !== undefined && handoffs.holdOff(key) > 0)) {
        options.signal?.throwIfAborted();
        first = await this.#attemptOnce(wait, owner);
      }
      granted = typeof first === 'object' ? first : await this.#waitFor(wait, owner, options, report, first);
    } finally {
      // A kind that queues its waiters takes one that leaves without the lock out of the queue.
      const { leave } = this.#kind;
      if (!granted && options.waitTime > 0 && leave)
        await runtime.runOnce(leave(wait, runtime.newHoldId())).catch(() => undefined);
    }
    if (!granted) {
      report?.timedOut();
      return null;
    }
    const undo = () => this.#releaseQuietly(field, granted.hold);
    if (granted === first && options.signal?.aborted) await abortWins(options.signal, undo);
    const held = await this.#keep(owner, field, options, granted, undo);
    // Only a local holder's hand-off passes a streak of local passes on.
    report?.taken(granted.streak !== undefined);
    return held;
  }

  // Waits for the lock (see waitToAcquire) after a first attempt found it held (`firstTtl`), or
  // without one while the client holds off: the hold taken or passed, or `undefined` when the wait ran out.
  async #waitFor(
    wait: WaitContext,
    owner: string,
    options: CheckedAcquireOptions,
    report: AcquisitionReport | undefined,
    firstTtl: number | undefined,
  ): Promise<Passed<Grant> | undefined> {
    const runtime = this.#runtime;
    const { field } = wait;
    let granted: Passed<Grant> | undefined;
    const attempt = async () => {
      const outcome = await this.#attemptOnce(wait, owner);
      if (typeof outcome === 'number') return outcome;
      granted = outcome;
      return null;
    };
    const undo = async () => {
      if (granted) await this.#releaseQuietly(field, granted.hold);
    };
    const onBusy = report && (() => report.busy());
    const { backoff } = this.#kind;
    // A kind without pub/sub polls: no subscription, no hand-off receiver. Nothing wakes a
    // polling waiter when the client closes: its next attempt finds out.
    if (backoff) {
      const { waitTime, signal } = options;
      const attemptWhileOpen = () => {
        runtime.assertOpen();
        return attempt();
      };
      return (await spinToAcquire({ backoff, waitTime, signal, firstTtl, attempt: attemptWhileOpen, undo, onBusy }))
        ? granted
        : undefined;
    }
    const handoffs = runtime.localHandoffs;
    const receiver =
      handoffs && this.#receiving && options.waitTime > 0
        ? new HandoffReceiver(handoffs, this.#receiving, field, wait.lease, (passed) => {
            // Passed the lock as an attempt in flight took it too: one hold is enough.
            if (granted) this.#giveBack(field, passed.hold);
            else granted = passed;
          })
        : undefined;
    const key = this.#receiving?.key;
    const taken = await waitToAcquire({
      join: (channel) => runtime.join(channel),
      receiver,
      channel: this.#kind.waitChannel(field),
      waitTime: options.waitTime,
      signal: options.signal,
      firstTtl,
      // Right after a run of local passes of this lock ended, other processes take the turn.
      holdOff: receiver && handoffs && key !== undefined ? () => handoffs.holdOff(key) : undefined,
      attempt,
      undo,
      onBusy,
    });
    return taken ? granted : undefined;
  }

  /** For lock groups: see `attemptAlone` in `@deadbolt/core/kit`. */
  async [ATTEMPT_ALONE](options?: Omit<AcquireOptions, 'waitTime'>): Promise<UnkeptHold<Held> | null> {
    const checked = checkAcquireOptions({ ...options, waitTime: 0 }, 0);
    const runtime = this.#runtime;
    runtime.assertOpen();
    checked.signal?.throwIfAborted();
    const owner = checked.owner ?? currentOwner(this.name) ?? runtime.newOwnerId();
    const field = ownerField(runtime.clientId, owner);
    const report = acquisitionReport(runtime.events, this.name, this.#kind.kindName, owner);
    let outcome: Passed<Grant> | number;
    try {
      outcome = await this.#attemptOnce(
        { field, lease: checked.leaseTime ?? runtime.watchdogTimeout, waitTime: 0 },
        owner,
      );
    } catch (error) {
      report?.failed(error, checked.signal);
      throw error;
    }
    if (typeof outcome === 'number') {
      report?.busy();
      report?.timedOut();
      return null;
    }
    const taken = outcome;
    const giveBack = () => this.#releaseQuietly(field, taken.hold);
    const keep = async () => {
      const held = await this.#keep(owner, field, checked, taken, giveBack);
      report?.taken(false);
      return held;
    };
    return { keep, giveBack };
  }

  // A hold an attempt took (or was passed) becomes a held lock, unless the client closed or
  // replicas did not confirm it: then it goes back.
  async #keep(
    owner: string,
    field: string,
    options: CheckedAcquireOptions,
    taken: Passed<Grant>,
    undo: () => Promise<void>,
  ): Promise<Held> {
    const runtime = this.#runtime;
    if (runtime.closed) await this.#giveBackAsClosed(undo);
    if (runtime.confirmReplicas) {
      await this.#syncAcquired(runtime.confirmReplicas, undo, options.signal);
      // Closed while replicas were being waited for: nobody would keep this lock alive either.
      if (runtime.closed) await this.#giveBackAsClosed(undo);
    }
    return this.#held(owner, field, options.leaseTime, taken);
  }

  #held(
    owner: string,
    field: string,
    leaseTime: number | undefined,
    { hold, grant, acquiredAt, streak }: Passed<Grant>,
  ): Held {
    const runtime = this.#runtime;
    const kind = this.#kind;
    let releaseSent = false;
    const description: HoldDescription = {
      keepAlive: (target, onLost, at, until) => runtime.keepAlive(target, onLost, at, until),
      name: this.name,
      owner,
      leaseTime,
      guardLease: kind.guardsFixedLeases ?? false,
      target: { command: kind.renew, name: this.name, field: this.#holdField(field), hold },
      acquiredAt,
      // Only the first call may pass the lock on: after a failed hand-off its latch would tell a
      // second receiver "passed" of a pass that went to the first.
      release: () => {
        const mayPass = !releaseSent;
        releaseSent = true;
        const releasing = this.#release(field, hold, mayPass, streak);
        const { events } = runtime;
        if (!events.listening('released')) return releasing;
        return releasing.then((released) => {
          if (released)
            events.emit('released', {
              name: this.name,
              kind: kind.kindName,
              owner,
              heldMs: performance.now() - acquiredAt,
            });
          return released;
        });
      },
      extend: (lease) => runtime.run(kind.extend(field, hold, lease, runtime.newHoldId())),
      reportLost: (error) => {
        if (runtime.events.listening('lockLost'))
          runtime.events.emit('lockLost', { key: this.name, field: this.#holdField(field), error });
      },
    };
    return kind.held(description, grant);
  }

  // One attempt, with a hold id of its own: the hold it took, or how long to sleep (the holder's TTL).
  async #attemptOnce(wait: WaitContext, owner: string): Promise<Passed<Grant> | number> {
    // Spelled out, not spread from `wait`: see fixedShapeKind.
    const attempt: AttemptContext = {
      field: wait.field,
      lease: wait.lease,
      waitTime: wait.waitTime,
      hold: this.#runtime.newHoldId(),
    };
    const acquiredAt = performance.now();
    let reply: AcquireReply<Grant>;
    try {
      reply = await this.tryAcquireOnce(attempt);
    } catch (error) {
      // The request may have run before the connection failed (node-redis then rejects it without
      // sending it again): give back whatever it took. Releasing by this attempt's hold id touches
      // nothing else, and does nothing when it took nothing.
      if (error instanceof RedisUnavailableError) this.#giveBack(wait.field, attempt.hold);
      throw error;
    }
    switch (reply.status) {
      case 'taken':
        return { hold: attempt.hold, grant: reply.grant, acquiredAt };
      case 'heldByOther':
        return reply.ttl;
      case 'refused':
        throw (
          this.#kind.refused?.(owner) ?? new InvalidArgumentError('owner', `lock "${this.name}" refused owner ${owner}`)
        );
    }
  }

  // Passes the lock to a local waiter when the kind hands off and one waits (within the run's
  // limits), else releases it to everyone. A release that changed something waits for replicas,
  // when the client syncs them; the lock stays released on the master whatever they say.
  async #release(field: string, hold: string, mayPass: boolean, streak: HandoffStreak | undefined): Promise<boolean> {
    const handoffs = this.#runtime.localHandoffs;
    const key = this.#receiving?.key;
    const claim = mayPass && key !== undefined ? handoffs?.claim(key, streak) : undefined;
    let released: boolean;
    if (typeof claim === 'object') {
      released = await claim.receiver.receiveFrom({ field, hold }, claim.streak);
    } else if (claim === 'runEnded' && handoffs && key !== undefined) {
      // A run of local passes ends here: this client's waiters let the other processes go first,
      // from before the release is sent (its publish may wake them before its reply arrives).
      const sent = handoffs.beginStepBack(key);
      let freed = false;
      try {
        const reply = await this.#runtime.run(this.#kind.release(field, hold));
        freed = reply === 'freed';
        released = reply !== 'notHeld';
      } finally {
        handoffs.endStepBack(key, sent, freed);
      }
    } else {
      released = (await this.#runtime.run(this.#kind.release(field, hold))) !== 'notHeld';
    }
    const confirm = this.#runtime.confirmReplicas;
    if (released && confirm) await confirm(this.name, 'release');
    return released;
  }

  #giveBack(field: string, hold: string): void {
    void this.#releaseQuietly(field, hold);
  }

  // Gives a hold back where nobody awaits the outcome, trying again while Redis is away and the
  // client open (a release by hold id counts once): one never released expires with its lease.
  async #releaseQuietly(field: string, hold: string): Promise<void> {
    const { events } = this.#runtime;
    await this.#runtime.giveBack(this.#kind.release(field, hold), (error) => {
      if (events.listening('handledError'))
        events.emit('handledError', { operation: 'giveBack', name: this.name, error });
    });
  }

  // Closed while the acquisition was in flight: nobody would keep this lock alive, so it goes back.
  async #giveBackAsClosed(undo: () => Promise<void>): Promise<void> {
    await undo();
    this.#runtime.assertOpen();
  }

  // With replica sync, an acquisition counts once replicas have it; one they lack is given back.
  // An abort during the wait still wins, as it does over an attempt in flight.
  async #syncAcquired(
    confirm: NonNullable<CoreRuntime['confirmReplicas']>,
    undo: () => Promise<void>,
    signal: AbortSignal | undefined,
  ): Promise<void> {
    try {
      await confirm(this.name, 'acquire');
      signal?.throwIfAborted();
    } catch (error) {
      await undo();
      throw error;
    }
  }

  #holdField(field: string): string {
    return this.#kind.holdField ? this.#kind.holdField(field) : field;
  }

  #fieldOf(owner: string | undefined): string {
    const id = owner === undefined ? currentOwner(this.name) : checkOwner(owner, 'owner');
    if (id === undefined) throw new InvalidArgumentError('owner', 'give an owner, or ask inside a withLock callback');
    return ownerField(this.#runtime.clientId, id);
  }

  #state(holdField: string): Promise<LockState> {
    this.#runtime.assertOpen();
    return this.#runtime.run(this.#kind.state(holdField));
  }
}
