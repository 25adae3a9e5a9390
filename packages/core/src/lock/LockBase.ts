import { InvalidArgumentError, LockWaitTimeoutError, RedisUnavailableError } from '../errors/LockError.js';
import { holdMarkersKey, ownerField } from '../keys/lockKeys.js';
import type { LockClient } from '../client/LockClient.js';
import { checkFunction, checkLockName, checkOwner } from '../options/validate.js';
import { currentOwner, runAsOwner } from '../owner/ownerScope.js';
import { coreScripts } from '../scripts/coreScripts.js';
import type { Script } from '../scripts/Script.js';
import type { ReplicaSync } from '../replication/ReplicaSync.js';
import { checkAcquireOptions, type AcquireOptions, type CheckedAcquireOptions } from './AcquireOptions.js';
import { HeldLock, type HoldDescription } from './HeldLock.js';
import { releaseAfter } from './releaseAfter.js';
import { waitToAcquire } from './waitToAcquire.js';

/** What an acquisition's attempts share, passed to {@link LockBase.leaveWait}. */
export interface WaitContext {
  /** The owner field, `<clientId>:<ownerId>`. */
  readonly field: string;
  /** The lease to set, in milliseconds. */
  readonly lease: number;
  /** The wait time of the whole acquisition; 0 means this is the only attempt. */
  readonly waitTime: number;
}

/** One acquisition attempt's context, passed to {@link LockBase.tryAcquireOnce}. */
export interface AttemptContext extends WaitContext {
  /**
   * This attempt's hold id, `<instance>:<n>` (`<instance>` random per client object), never
   * reused: the hold it takes is marked with it, so that the request counts once however often
   * the driver sends it, and its release and extend name it.
   */
  readonly hold: string;
}

/** What the query methods read of a lock, in one round trip. See {@link LockBase.lockState}. */
export interface LockState {
  /** The lock's remaining TTL in milliseconds: -2 when nobody holds it, -1 when it never expires. */
  readonly ttl: number;
  /** The hold count of the field asked about; 0 when it holds none or none was asked about. */
  readonly holds: number;
}

/**
 * What every lock kind shares: acquisition with and without waiting, `withLock`, owners and
 * reentrancy, the watchdog, replica sync, the queries over Redisson's hash layout. A lock kind
 * supplies its scripts through the protected hooks. For lock kind authors; applications use the
 * subclasses.
 *
 * @typeParam Held - what an acquisition returns: {@link HeldLock}, or a subclass that carries
 *   more (a fenced lock's token); a kind that changes it overrides {@link LockBase.createHeld}
 * @typeParam Grant - what a successful attempt resolves ({@link LockBase.tryAcquireOnce}) and
 *   {@link LockBase.createHeld} receives: `null` for a kind that learns nothing more; never a
 *   number, which means the lock is taken
 */
export abstract class LockBase<Held extends HeldLock = HeldLock, Grant = null> {
  /** The lock's name: the Redis key of its hash. */
  readonly name: string;
  /** The client this lock runs on. A MultiLock and a RedLock tell their members' deployments apart by it. */
  readonly client: LockClient;

  /**
   * @param client - the client to use
   * @param name - the lock's name; a name with `{braces}` is its own cluster hash tag
   * @throws {@link InvalidArgumentError} when `name` is not a non-empty string
   */
  constructor(client: LockClient, name: string) {
    this.name = checkLockName(name);
    this.client = client;
  }

  /**
   * Takes the lock, waiting as long as `options.waitTime` (default: no limit).
   *
   * @throws {@link LockWaitTimeoutError} when the wait time runs out
   * @throws the signal's reason when `options.signal` aborts
   * @throws {@link RedisUnavailableError}, {@link InvalidArgumentError}, {@link ClientClosedError}
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
   * @throws {@link RedisUnavailableError}, {@link InvalidArgumentError}, {@link ClientClosedError}
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
   * @throws what `fn` throws, or what {@link LockBase.acquire} and {@link HeldLock.release} throw
   */
  async withLock<T>(fn: (signal: AbortSignal, held: Held) => T | Promise<T>, options?: AcquireOptions): Promise<T> {
    checkFunction(fn, 'fn');
    const held = await this.acquire(options);
    return releaseAfter(held, () => runAsOwner(this.name, held.owner, () => fn(held.signal, held)));
  }

  /**
   * Deletes the lock whoever holds it and wakes a waiter. Holders learn it at their next
   * renewal or release.
   *
   * @returns `true` when there was a lock to delete
   */
  abstract forceUnlock(): Promise<boolean>;

  /** Whether anyone holds the lock. */
  async isLocked(): Promise<boolean> {
    return (await this.#state('')).ttl !== -2;
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
    return (await this.#state(this.holdField(this.#fieldOf(owner)))).holds;
  }

  /**
   * How long until the lock expires, in milliseconds: `null` when nobody holds it, `Infinity`
   * when it never expires (set without a TTL by something other than Deadbolt).
   */
  async remainingTtl(): Promise<number | null> {
    const { ttl } = await this.#state('');
    return ttl === -2 ? null : ttl === -1 ? Infinity : ttl;
  }

  /**
   * One attempt to take or re-enter the lock. Resolves the kind's grant (`null` for most kinds)
   * when taken, else the holder's remaining TTL in milliseconds (-1 when it never expires).
   */
  protected abstract tryAcquireOnce(attempt: AttemptContext): Promise<number | Grant>;

  /**
   * Wraps a successful acquisition in what `acquire` returns, given the grant of the attempt that
   * took it. The default makes a {@link HeldLock}, the held type of every kind that keeps `Held`
   * at its default; a kind with a held type of its own overrides it.
   */
  protected createHeld(hold: HoldDescription, _grant: Grant): Held {
    return new HeldLock(hold) as Held;
  }

  /**
   * Releases the hold `hold` of `field`. Resolves `false` when that hold does not stand (released
   * already, expired, force-unlocked). Called again with the same hold after a failure: the
   * hold's markers and unlock latch make a repeat harmless.
   */
  protected abstract releaseOnce(field: string, hold: string): Promise<boolean>;

  /**
   * Sets a lease of `lease` ms from now on the hold `hold` of `field` ({@link HeldLock.extend}).
   * Resolves `false` when that hold does not stand. The default is the reentrant layout's: the
   * owner's only hold gets exactly `lease`; with other holds of the owner standing the lock is
   * only ever lengthened.
   */
  protected async extendOnce(field: string, hold: string, lease: number): Promise<boolean> {
    const reply = await this.client.scripts.run(coreScripts.extend, [this.name, holdMarkersKey(this.name)], [lease, field, hold]);
    return Number(reply) === 1;
  }

  /** The channel a waiter with owner `field` sleeps on. */
  protected abstract waitChannel(field: string): string;

  /**
   * Called when a wait ends without the lock (timeout, abort, error), with the context its
   * attempts had, so that a lock kind that queues its waiters can take this one out of the queue
   * at once.
   */
  protected async leaveWait(_wait: WaitContext): Promise<void> {}

  /**
   * Whether the watchdog guards holds with a fixed lease up to the end of that lease: for a kind
   * whose hash other owners' holds share, where another party's renewal may shorten it.
   */
  protected get guardsFixedLeases(): boolean {
    return false;
  }

  /** The batch renewal script the watchdog runs for this kind's holds. */
  protected get renewalScript(): Script {
    return coreScripts.renew;
  }

  /**
   * The hash field that counts the holds of the owner whose field is `ownerField`: what the
   * watchdog renews and what {@link LockBase.holdCount} reads. The owner field itself unless a
   * kind stores its holds under another field (a read-write lock's writer: `<ownerField>:write`).
   */
  protected holdField(ownerField: string): string {
    return ownerField;
  }

  /**
   * Reads the lock's TTL and the hold count of `field` (a {@link LockBase.holdField}, or `''` for
   * none), for the query methods. A kind whose hash holds more than owner fields (a read-write
   * lock's `mode`) overrides it to say when it counts as held.
   */
  protected async lockState(field: string): Promise<LockState> {
    const reply = await this.client.scripts.run(coreScripts.state, [this.name], [field]);
    const [ttl, holds] = Array.isArray(reply) ? reply : [];
    return { ttl: Number(ttl), holds: Number(holds) };
  }

  async #acquire(options: CheckedAcquireOptions): Promise<Held | null> {
    const client = this.client;
    client.assertOpen();
    const owner = options.owner ?? currentOwner(this.name) ?? client.newOwnerId();
    const field = ownerField(client.id, owner);
    const lease = options.leaseTime ?? client.renewals.lease;
    const wait: WaitContext = { field, lease, waitTime: options.waitTime };
    let granted: Granted<Grant> | undefined;
    const undo = async () => {
      if (granted) await this.releaseOnce(field, granted.hold).catch(() => false);
    };
    let taken = false;
    try {
      taken = await waitToAcquire({
        client,
        channel: this.waitChannel(field),
        waitTime: options.waitTime,
        signal: options.signal,
        attempt: async () => {
          const outcome = await this.#attemptOnce(wait);
          if (typeof outcome === 'number') return outcome;
          granted = outcome;
          return null;
        },
        undo,
      });
    } finally {
      if (!taken && options.waitTime > 0) await this.leaveWait(wait).catch(() => undefined);
    }
    if (!taken || !granted) return null;
    const { hold: holdId, grant, acquiredAt } = granted;
    await this.#giveBackIfClosed(undo);
    const sync = client.replicaSync;
    if (sync) {
      await this.#syncAcquired(sync, undo, options.signal);
      // Closed while replicas were being waited for: nobody would keep this lock alive either.
      await this.#giveBackIfClosed(undo);
    }
    const release = () => this.releaseOnce(field, holdId);
    const hold: HoldDescription = {
      client,
      name: this.name,
      owner,
      leaseTime: options.leaseTime,
      guardLease: this.guardsFixedLeases,
      target: { script: this.renewalScript, key: this.name, field: this.holdField(field), hold: holdId },
      acquiredAt,
      release: sync ? this.#syncedRelease(sync, release) : release,
      extend: (leaseTime) => this.extendOnce(field, holdId, leaseTime),
    };
    return this.createHeld(hold, grant);
  }

  // One attempt, with a hold id of its own: the hold it took, or the holder's TTL.
  async #attemptOnce(wait: WaitContext): Promise<Granted<Grant> | number> {
    const attempt: AttemptContext = { ...wait, hold: this.client.newRequestId() };
    const acquiredAt = performance.now();
    try {
      const outcome = await this.tryAcquireOnce(attempt);
      return typeof outcome === 'number' ? outcome : { hold: attempt.hold, grant: outcome, acquiredAt };
    } catch (error) {
      // The request may have run before the connection failed (node-redis then rejects it without
      // sending it again): give back whatever it took. Releasing by this attempt's hold id touches
      // nothing else, and does nothing when it took nothing.
      if (error instanceof RedisUnavailableError) void this.releaseOnce(wait.field, attempt.hold).catch(() => false);
      throw error;
    }
  }

  // Closed while the acquisition was in flight: nobody would keep this lock alive, so it goes back.
  async #giveBackIfClosed(undo: () => Promise<void>): Promise<void> {
    if (!this.client.closed) return;
    await undo();
    this.client.assertOpen();
  }

  // With replica sync, an acquisition counts once replicas have it; one they lack is given back.
  // An abort during the wait still wins, as it does over an attempt in flight.
  async #syncAcquired(sync: ReplicaSync, undo: () => Promise<void>, signal: AbortSignal | undefined): Promise<void> {
    try {
      await sync.confirm(this.name, 'acquire');
      signal?.throwIfAborted();
    } catch (error) {
      await undo();
      throw error;
    }
  }

  // A release that changed something waits for replicas; the lock stays released on the master
  // whatever they say.
  #syncedRelease(sync: ReplicaSync, release: () => Promise<boolean>): () => Promise<boolean> {
    return async () => {
      const released = await release();
      if (released) await sync.confirm(this.name, 'release');
      return released;
    };
  }

  /**
   * Runs an acquisition script that replies nil when it took the lock, else the holder's TTL; a
   * reply that comes after the call timed out took the lock for nobody, so that hold is given
   * back at once. For subclasses' {@link LockBase.tryAcquireOnce}.
   */
  protected runAcquireScript(
    script: Script,
    keys: readonly string[],
    args: readonly (string | number)[],
    attempt: AttemptContext,
  ): Promise<number | null> {
    return this.runGrantingScript(script, keys, args, attempt, nilOrTtl);
  }

  /**
   * {@link LockBase.runAcquireScript} for a script whose success reply carries something:
   * `decode` turns a reply into the holder's TTL (a number) or the grant.
   */
  protected async runGrantingScript<G>(
    script: Script,
    keys: readonly string[],
    args: readonly (string | number)[],
    attempt: AttemptContext,
    decode: (reply: unknown) => number | G,
  ): Promise<number | G> {
    const reply = await this.client.scripts.run(script, keys, args, (late) => {
      if (typeof decode(late) !== 'number') void this.releaseOnce(attempt.field, attempt.hold).catch(() => false);
    });
    return decode(reply);
  }

  #fieldOf(owner: string | undefined): string {
    const id = owner === undefined ? currentOwner(this.name) : checkOwner(owner, 'owner');
    if (id === undefined) throw new InvalidArgumentError('owner', 'give an owner, or ask inside a withLock callback');
    return ownerField(this.client.id, id);
  }

  #state(field: string): Promise<LockState> {
    this.client.assertOpen();
    return this.lockState(field);
  }
}

/** A successful attempt: the hold it took, what the kind's script granted, when it was sent. */
interface Granted<Grant> {
  readonly hold: string;
  readonly grant: Grant;
  readonly acquiredAt: number;
}

function nilOrTtl(reply: unknown): number | null {
  return reply === null ? null : Number(reply);
}
