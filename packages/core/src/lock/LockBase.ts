import { LockWaitTimeoutError } from '../errors/LockError.js';
// eslint-disable-next-line @typescript-eslint/no-unused-vars -- imported for the TSDoc {@link ...} of the errors only
import type { InvalidArgumentError, RedisUnavailableError } from '../errors/LockError.js';
import { lockHolders } from '../commands/lockHolders.js';
import { call } from '../scripts/Command.js';
import { checkFunction, checkLockName } from '../options/validate.js';
import { runAsOwner } from '../owner/ownerScope.js';
import { coreRuntime } from '../runtime/CoreRuntime.js';
import type { LockHost } from '../runtime/LockRuntime.js';
import { checkAcquireOptions, type AcquireOptions, type CheckedAcquireOptions } from './AcquireOptions.js';
import { Acquisition } from './acquisition/Acquisition.js';
import { LockSite } from './acquisition/LockSite.js';
import { checkForceUnlockOptions, type ForceUnlockOptions } from './ForceUnlockOptions.js';
import type { HeldLock } from './HeldLock.js';
import { ATTEMPT_ALONE, type UnkeptHold } from './attemptAlone.js';
import { LOCK_BRAND } from './isLock.js';
import type { LockKind } from './LockKind.js';
import { releaseAfter } from './releaseAfter.js';

/**
 * A distributed lock of any kind: acquisition with and without waiting, `withLock`, owners and
 * reentrancy, the watchdog, replica sync, releases, force-unlock and the queries over Redisson's
 * hash layout, done once for every kind from the kind's {@link LockKind} declaration. Each
 * acquisition is an `Acquisition` of its own; the lock answers the queries.
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
  readonly #site: LockSite<Grant, Held>;

  /**
   * @param client - the `LockClient` to use
   * @param name - the lock's name; a name with `{braces}` is its own cluster hash tag
   * @param declare - the kind's declaration for a lock of this name
   * @throws {@link InvalidArgumentError} when `name` is not a non-empty string, or `client` not a `LockClient`
   */
  constructor(client: LockHost, name: string, declare: (name: string) => LockKind<Grant, Held>) {
    this.name = checkLockName(name);
    this.#site = new LockSite(coreRuntime(client), this.name, declare(this.name));
    this.client = client;
  }

  /**
   * Takes the lock, waiting as long as `options.waitTime` (default: the client's
   * `defaultWaitTime`, without it no limit).
   *
   * @throws {@link LockWaitTimeoutError} when the wait time runs out
   * @throws the signal's reason when `options.signal` aborts
   * @throws {@link RedisUnavailableError}, {@link InvalidArgumentError}, `ClientClosedError`
   */
  async acquire(options?: AcquireOptions): Promise<Held> {
    const checked = checkAcquireOptions(options, this.#site.runtime.defaultWaitTime);
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
   * @throws the hold's `LockLostError` when the lock was lost while `fn` ran, even if `fn`
   *   returned normally (its work may have overlapped the next holder's), and when `fn` rejected
   *   because the signal aborted, whatever API the signal went through (see `releaseAfter` in
   *   `@deadbolt/core/kit`); else what `fn` throws; else what {@link LockBase.acquire} and
   *   {@link HeldLock.release} throw
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
    const { runtime, kind } = this.#site;
    runtime.assertOpen();
    const holders =
      checkForceUnlockOptions(options).holders ?? (await runtime.run(call(lockHolders, { name: this.name })));
    if (Object.keys(holders).length === 0) return false;
    // Counted once per request, so sent again while Redis is away: the caller learns the outcome where it can.
    return runtime.runOnce(kind.forceRelease({ request: runtime.newHoldId(), holders }));
  }

  /** Whether anyone holds the lock. */
  async isLocked(): Promise<boolean> {
    return (await this.#site.state('')).ttl !== null;
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
    return (await this.#site.state(this.#site.holdFieldOf(owner))).holds;
  }

  /**
   * How long until the lock expires, in milliseconds: `null` when nobody holds it, `Infinity`
   * when it never expires (set without a TTL by something other than Deadbolt).
   */
  async remainingTtl(): Promise<number | null> {
    return (await this.#site.state('')).ttl;
  }

  /** For lock groups: see `attemptAlone` in `@deadbolt/core/kit`. */
  async [ATTEMPT_ALONE](options?: Omit<AcquireOptions, 'waitTime'>): Promise<UnkeptHold<Held> | null> {
    const checked = checkAcquireOptions({ ...options, waitTime: 0 }, 0);
    this.#site.runtime.assertOpen();
    return new Acquisition(this.#site, checked).attemptAlone();
  }

  #acquire(options: CheckedAcquireOptions): Promise<Held | null> {
    this.#site.runtime.assertOpen();
    return new Acquisition(this.#site, options).take();
  }
}
