import { InvalidArgumentError, LockWaitTimeoutError } from '../errors/LockError.js';
import { lockChannelName, ownerField, unlockLatchKey } from '../keys/lockKeys.js';
import type { LockClient } from '../LockClient.js';
import { checkFunction, checkName, checkOwner } from '../options/validate.js';
import { currentOwner, runAsOwner } from '../owner/ownerScope.js';
import { coreScripts } from '../scripts/coreScripts.js';
import { checkAcquireOptions, type AcquireOptions, type CheckedAcquireOptions } from './AcquireOptions.js';
import { HeldLock } from './HeldLock.js';
import { waitToAcquire } from './waitToAcquire.js';

// Message that wakes one waiter, as Redisson's LockPubSub.UNLOCK_MESSAGE.
const UNLOCK_MESSAGE = 0;

/**
 * A reentrant distributed lock: Redisson's `RLock`, stored in Redisson's layout (a hash at the
 * lock name whose field `<clientId>:<ownerId>` counts the owner's holds), so Java services using
 * Redisson and Node services using Deadbolt exclude each other on the same name.
 *
 * Every acquisition has an owner. Without `owner`, each acquisition outside a `withLock` scope
 * gets a fresh one, so concurrent tasks sharing this handle exclude each other; inside a
 * `withLock` callback, nested acquisitions re-enter as the scope's owner.
 */
export class Lock {
  /** The lock's name: the Redis key of its hash. */
  readonly name: string;
  readonly #client: LockClient;
  readonly #channel: string;

  /**
   * @param client - the client to use
   * @param name - the lock's name; a name with `{braces}` is its own cluster hash tag
   * @throws {@link InvalidArgumentError} when `name` is not a non-empty string
   */
  constructor(client: LockClient, name: string) {
    this.name = checkName(name);
    this.#client = client;
    this.#channel = lockChannelName(this.name);
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
   * @throws what `fn` throws, or what {@link Lock.acquire} and {@link HeldLock.release} throw
   */
  async withLock<T>(fn: (signal: AbortSignal, held: HeldLock) => T | Promise<T>, options?: AcquireOptions): Promise<T> {
    checkFunction(fn, 'fn');
    const held = await this.acquire(options);
    let result: T;
    try {
      result = await runAsOwner(held.owner, () => fn(held.signal, held));
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
  async forceUnlock(): Promise<boolean> {
    this.#client.assertOpen();
    const publish = await this.#client.publishCommand();
    const reply = await this.#client.scripts.run(coreScripts.forceRelease, [this.name, this.#channel], [UNLOCK_MESSAGE, publish]);
    return Number(reply) === 1;
  }

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
    return (await this.#state(this.#fieldOf(owner))).holds;
  }

  /**
   * How long until the lock expires, in milliseconds: `null` when nobody holds it, `Infinity`
   * when it never expires (set without a TTL by something other than Deadbolt).
   */
  async remainingTtl(): Promise<number | null> {
    const { ttl } = await this.#state('');
    return ttl === -2 ? null : ttl === -1 ? Infinity : ttl;
  }

  async #acquire(options: CheckedAcquireOptions): Promise<HeldLock | null> {
    const client = this.#client;
    client.assertOpen();
    const owner = options.owner ?? currentOwner() ?? client.newOwnerId();
    const field = ownerField(client.id, owner);
    const watchdog = options.leaseTime === undefined;
    const lease = options.leaseTime ?? client.renewals.lease;
    const release = (requestId: string) => this.#release(field, lease, requestId);
    const undo = async () => void (await release(client.newRequestId()).catch(() => false));
    let acquiredAt = 0;
    const taken = await waitToAcquire({
      client,
      channel: this.#channel,
      waitTime: options.waitTime,
      signal: options.signal,
      attempt: async () => {
        acquiredAt = performance.now();
        // An attempt that answers after its timeout took the lock for nobody: give it back.
        const reply = await client.scripts.run(coreScripts.acquire, [this.name], [lease, field], (late) => late === null && void undo());
        return reply === null ? null : Number(reply);
      },
      undo,
    });
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
      renewal: watchdog ? { script: coreScripts.renew, key: this.name, field } : undefined,
      acquiredAt,
      release,
    });
  }

  async #release(field: string, lease: number, requestId: string): Promise<boolean> {
    const client = this.#client;
    const publish = await client.publishCommand();
    const reply = await client.scripts.run(
      coreScripts.release,
      [this.name, this.#channel, unlockLatchKey(this.name, requestId)],
      // The latch outlives any re-send of this request by the driver.
      [UNLOCK_MESSAGE, lease, field, publish, 2 * client.options.commandTimeout],
    );
    return reply !== null;
  }

  #fieldOf(owner: string | undefined): string {
    const id = owner === undefined ? currentOwner() : checkOwner(owner, 'owner');
    if (id === undefined) throw new InvalidArgumentError('owner', 'give an owner, or ask inside a withLock callback');
    return ownerField(this.#client.id, id);
  }

  async #state(field: string): Promise<{ ttl: number; holds: number }> {
    this.#client.assertOpen();
    const reply = await this.#client.scripts.run(coreScripts.state, [this.name], [field]);
    const [ttl, holds] = Array.isArray(reply) ? reply : [];
    return { ttl: Number(ttl), holds: Number(holds) };
  }
}
