import { InvalidArgumentError, LockWaitTimeoutError } from '../errors/LockError.js';
import { ownerField } from '../keys/lockKeys.js';
import type { LockClient } from '../client/LockClient.js';
import { checkFunction, checkLockName, checkOwner } from '../options/validate.js';
import { currentOwner, runAsOwner } from '../owner/ownerScope.js';
import { coreScripts } from '../scripts/coreScripts.js';
import type { Script } from '../scripts/Script.js';
import { checkAcquireOptions, type AcquireOptions, type CheckedAcquireOptions } from './AcquireOptions.js';
import { HeldLock } from './HeldLock.js';
import { waitToAcquire } from './waitToAcquire.js';

/** One acquisition attempt's context, passed to {@link LockBase.tryAcquireOnce}. */
export interface AttemptContext {
  /** The owner field, `<clientId>:<ownerId>`. */
  readonly field: string;
  /** The lease to set, in milliseconds. */
  readonly lease: number;
  /** The wait time of the whole acquisition; 0 means this is the only attempt. */
  readonly waitTime: number;
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
 * reentrancy, the watchdog, the queries over Redisson's hash layout. A lock kind supplies its
 * scripts through the protected hooks. For lock kind authors; applications use the subclasses.
 */
export abstract class LockBase {
  /** The lock's name: the Redis key of its hash. */
  readonly name: string;
  /** The client this lock runs on. */
  protected readonly client: LockClient;

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
  async acquire(options?: AcquireOptions): Promise<HeldLock> {
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
  async tryAcquire(options?: AcquireOptions): Promise<HeldLock | null> {
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
  async withLock<T>(fn: (signal: AbortSignal, held: HeldLock) => T | Promise<T>, options?: AcquireOptions): Promise<T> {
    checkFunction(fn, 'fn');
    const held = await this.acquire(options);
    let result: T;
    try {
      result = await runAsOwner(this.name, held.owner, () => fn(held.signal, held));
    } catch (error) {
      // The callback's failure is the news; a release failing after it must not hide it.
      await held.release().catch(() => undefined);
      throw error;
    }
    await held.release();
    return result;
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
   * One attempt to take or re-enter the lock. Resolves `null` when taken, else the holder's
   * remaining TTL in milliseconds (-1 when it never expires).
   */
  protected abstract tryAcquireOnce(attempt: AttemptContext): Promise<number | null>;

  /**
   * Releases one hold of `field`. Resolves `false` when that owner did not hold the lock.
   * `requestId` names the release's unlock latch, so a re-sent request is harmless.
   */
  protected abstract releaseOnce(field: string, lease: number, requestId: string): Promise<boolean>;

  /** The channel a waiter with owner `field` sleeps on. */
  protected abstract waitChannel(field: string): string;

  /**
   * Called when a wait ends without the lock (timeout, abort, error), with the context its
   * attempts had, so that a lock kind that queues its waiters can take this one out of the queue
   * at once.
   */
  protected async leaveWait(_attempt: AttemptContext): Promise<void> {}

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

  async #acquire(options: CheckedAcquireOptions): Promise<HeldLock | null> {
    const client = this.client;
    client.assertOpen();
    const owner = options.owner ?? currentOwner(this.name) ?? client.newOwnerId();
    const field = ownerField(client.id, owner);
    const lease = options.leaseTime ?? client.renewals.lease;
    const release = (requestId: string) => this.releaseOnce(field, lease, requestId);
    const undo = async () => void (await release(client.newRequestId()).catch(() => false));
    const context: AttemptContext = { field, lease, waitTime: options.waitTime };
    let acquiredAt = 0;
    let taken = false;
    try {
      taken = await waitToAcquire({
        client,
        channel: this.waitChannel(field),
        waitTime: options.waitTime,
        signal: options.signal,
        attempt: async () => {
          acquiredAt = performance.now();
          return this.tryAcquireOnce(context);
        },
        undo,
      });
    } finally {
      if (!taken && options.waitTime > 0) await this.leaveWait(context).catch(() => undefined);
    }
    if (!taken) return null;
    if (client.closed) {
      // Closed while the acquisition was in flight: nobody would keep this lock alive.
      await undo();
      client.assertOpen();
    }
    return new HeldLock({
      client,
      name: this.name,
      owner,
      leaseTime: options.leaseTime,
      target: { script: this.renewalScript, key: this.name, field: this.holdField(field) },
      acquiredAt,
      release,
    });
  }

  /**
   * Runs an acquisition script; a reply that comes after the call timed out took the lock for
   * nobody, so it is given back at once. For subclasses' {@link LockBase.tryAcquireOnce}.
   */
  protected async runAcquireScript(
    script: Script,
    keys: readonly string[],
    args: readonly (string | number)[],
    field: string,
    lease: number,
  ): Promise<number | null> {
    const reply = await this.client.scripts.run(script, keys, args, (late) => {
      if (late === null) void this.releaseOnce(field, lease, this.client.newRequestId()).catch(() => false);
    });
    return reply === null ? null : Number(reply);
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
