import {
  holdMarkersKey,
  InvalidArgumentError,
  LockBase,
  UNLOCK_MESSAGE,
  unlockLatchKey,
  type AttemptContext,
  type LockClient,
  type LockState,
  type Script,
} from '@deadbolt/core';
import { LockUpgradeError } from './LockUpgradeError.js';
import { readWriteLockKeys, type ReadWriteLockKeys } from './readWriteLockKeys.js';
import { rwlockScripts, UPGRADE_REFUSED } from './rwlockScripts.js';

/**
 * The message that wakes every waiter, as Redisson's `LockPubSub.READ_UNLOCK_MESSAGE`: the end of
 * write mode lets all waiting readers in at once.
 */
export const READ_UNLOCK_MESSAGE = 1;

/** Which lock of the pair: the read lock or the write lock. */
export type ReadWriteMode = 'read' | 'write';

// What differs between the read lock and the write lock.
interface ModeSpec {
  readonly acquire: Script;
  readonly release: Script;
  /** What freeing this mode publishes: a read unlock wakes one waiter, a write unlock all. */
  readonly freedMessage: number;
}

const SPECS: Record<ReadWriteMode, ModeSpec> = {
  read: {
    acquire: rwlockScripts.readAcquire,
    release: rwlockScripts.readRelease,
    freedMessage: UNLOCK_MESSAGE,
  },
  write: {
    acquire: rwlockScripts.writeAcquire,
    release: rwlockScripts.writeRelease,
    freedMessage: READ_UNLOCK_MESSAGE,
  },
};

/**
 * A distributed read-write lock: Redisson's `RReadWriteLock`, stored in its layout (a hash at the
 * name with a `mode` field, writer field `<clientId>:<ownerId>:write`, reader fields
 * `<clientId>:<ownerId>`, a key per read hold carrying its lease, channel
 * `redisson_rwlock:{name}`), so Java services using Redisson and Node services using Deadbolt
 * share one lock on the same name.
 *
 * - Readers share: any number of owners hold the {@link ReadWriteLock.readLock | read lock}
 *   together. The {@link ReadWriteLock.writeLock | write lock} excludes readers and other writers.
 *   A reader is let in whenever no writer holds the lock, also while a writer waits (Redisson's
 *   rule), so a steady stream of overlapping readers can keep a writer waiting.
 * - Both are reentrant, with owners as for every Deadbolt lock: fresh per acquisition, the
 *   enclosing `withLock` scope's, or given as `owner`.
 * - The write lock's owner may also take the read lock; releasing the write lock then keeps its
 *   read holds, and the lock turns into a read lock (a downgrade). The other way round, an owner
 *   holding the read lock that asks for the write lock gets a {@link LockUpgradeError} at once:
 *   the write lock waits for every reader to leave, this one included.
 * - Every read hold has its own lease; the lock lives as long as its longest live hold, so a
 *   reader whose client died keeps a writer out only until its own lease ends. The watchdog
 *   renews read and write holds without a lease, in the same batches as every other lock.
 * - Ending write mode wakes every waiter at once; a read release that frees the lock wakes one.
 *
 * Holds of one owner are counted, not told apart: the watchdog renewing an owner's read holds
 * renews all of them, also one it took with a fixed lease, and releasing one drops the read-hold
 * key that ends first, so the holds that remain keep the longest leases. The watchdog also guards
 * a read hold with a fixed lease up to the end of that lease, since Redisson's read-lock watchdog
 * shortens every reader's lease to its own. Owner ids ending in `:write` (or equal to `write`) are
 * refused: Redisson's layout reserves that suffix for the writer's field.
 *
 * @example
 * ```ts
 * import { LockUpgradeError, ReadWriteLock } from '@deadbolt/rwlock';
 * // ...
 * const catalog = new ReadWriteLock(locks, 'catalog');
 *
 * // Any number of readers at once, in any number of processes.
 * const readers = await Promise.all([catalog.readLock().acquire(), catalog.readLock().acquire()]);
 * console.log(`${readers.length} readers hold the read lock together`);
 *
 * // A writer waits until every reader has left.
 * const writing = catalog.writeLock().withLock(async () => {
 *   console.log('the writer updates the catalog alone');
 * });
 * ```
 */
export class ReadWriteLock {
  /** The lock's name: the Redis key of its hash. */
  readonly name: string;
  /** The keys, fields and channel of this lock in Redisson's layout. */
  readonly keys: ReadWriteLockKeys;
  readonly #read: ReadLock;
  readonly #write: WriteLock;

  /**
   * @param client - the client to use
   * @param name - the lock's name; a name with `{braces}` is its own cluster hash tag
   * @throws {@link @deadbolt/core!InvalidArgumentError} when `name` is not a non-empty string
   */
  constructor(client: LockClient, name: string) {
    this.#read = new ReadLock(client, name);
    this.#write = new WriteLock(client, name);
    this.name = this.#read.name;
    this.keys = this.#read.keys;
  }

  /** The shared lock: held by any number of readers at once while no writer holds it. */
  readLock(): ReadLock {
    return this.#read;
  }

  /** The exclusive lock: held by one writer, while no other owner holds the read lock. */
  writeLock(): WriteLock {
    return this.#write;
  }
}

/**
 * What the read lock and the write lock of a {@link ReadWriteLock} share: the hash, the channel,
 * the watchdog's renewal script and the queries, which see the lock in this half's mode. For
 * reference; applications get the halves from {@link ReadWriteLock}.
 */
export abstract class ReadWriteLockHalf extends LockBase {
  /** Which lock of the pair this is. */
  readonly mode: ReadWriteMode;
  /** The keys, fields and channel of the read-write lock in Redisson's layout. */
  readonly keys: ReadWriteLockKeys;
  readonly #spec: ModeSpec;
  readonly #markers: string;

  /**
   * @param client - the client to use
   * @param name - the read-write lock's name
   * @param mode - which lock of the pair this is
   */
  protected constructor(client: LockClient, name: string, mode: ReadWriteMode) {
    super(client, name);
    this.mode = mode;
    this.keys = readWriteLockKeys(this.name);
    this.#spec = SPECS[mode];
    this.#markers = holdMarkersKey(this.name);
  }

  /**
   * Deletes the lock whoever holds it, but only when it is held in this half's mode (the read
   * lock's `forceUnlock` leaves a writer alone, and the other way round), and wakes waiters.
   * Holders learn it at their next renewal or release.
   *
   * @returns `true` when the lock was held in this mode and is deleted
   */
  async forceUnlock(): Promise<boolean> {
    const client = this.client;
    client.assertOpen();
    const publish = await client.publishCommand();
    const reply = await client.scripts.run(
      rwlockScripts.forceRelease,
      [this.name, this.keys.channel],
      [this.mode, this.#spec.freedMessage, publish],
    );
    return Number(reply) === 1;
  }

  /** Reader fields are owner fields; the writer's is `<clientId>:<ownerId>:write`. */
  protected override holdField(ownerField: string): string {
    refuseWriterSuffix(ownerField, 'owner');
    return this.mode === 'write' ? this.keys.writerField(ownerField) : ownerField;
  }

  protected override get renewalScript(): Script {
    return rwlockScripts.renew;
  }

  /**
   * Read holds share the hash with other owners' holds, and Redisson's read-lock watchdog sets
   * every reader's lease to its own `lockWatchdogTimeout`: should that Java process die, the lock
   * would end before a longer Deadbolt lease. So the watchdog keeps a fixed-lease read hold alive
   * up to the end of its lease (never beyond).
   */
  protected override get guardsFixedLeases(): boolean {
    return this.mode === 'read';
  }

  protected override async lockState(field: string): Promise<LockState> {
    const reply = await this.client.scripts.run(rwlockScripts.state, [this.name], [field, this.mode]);
    const [ttl, holds] = Array.isArray(reply) ? reply : [];
    return { ttl: Number(ttl), holds: Number(holds) };
  }

  protected tryAcquireOnce(attempt: AttemptContext): Promise<number | null> {
    const { field, lease, hold } = attempt;
    // An acquisition's owner that is not generated comes from its options (or a scope they began).
    refuseWriterSuffix(field, 'options.owner');
    // The other field of the same owner: a writer may read; a reader asking to write is refused.
    const own = this.holdField(field);
    const other = this.mode === 'write' ? field : this.keys.writerField(field);
    return this.runAcquireScript(this.#spec.acquire, [this.name, this.#markers], [lease, own, other, hold], attempt);
  }

  protected async releaseOnce(field: string, hold: string): Promise<boolean> {
    const client = this.client;
    const publish = await client.publishCommand();
    const reply = await client.scripts.run(
      this.#spec.release,
      [this.name, this.keys.channel, unlockLatchKey(this.name, hold), this.#markers],
      // The latch tells a release re-sent soon after its first run the first outcome.
      [this.#spec.freedMessage, hold, this.holdField(field), publish, 2 * client.options.commandTimeout],
    );
    return reply !== null;
  }

  /**
   * The write lock's only hold gets exactly `lease` (never less than the owner's read holds
   * have); a read hold only lengthens the owner's read holds, since other owners share the hash.
   */
  protected override async extendOnce(field: string, hold: string, lease: number): Promise<boolean> {
    const scripts = this.client.scripts;
    if (this.mode === 'write') {
      return Number(await scripts.run(rwlockScripts.writeExtend, [this.name, this.#markers], [lease, this.holdField(field), hold])) === 1;
    }
    const reply = await scripts.run(rwlockScripts.renew, [this.name], [lease, field, hold]);
    return Array.isArray(reply) && Number(reply[0]) === 1;
  }

  protected waitChannel(): string {
    return this.keys.channel;
  }
}

/**
 * The read lock of a {@link ReadWriteLock}: shared by any number of owners while no other owner
 * holds the write lock. Each hold has its own lease (`leaseTime`, or the watchdog's); the lock
 * lives as long as the longest. Get it from {@link ReadWriteLock.readLock}.
 */
export class ReadLock extends ReadWriteLockHalf {
  /**
   * @param client - the client to use
   * @param name - the read-write lock's name
   * @throws {@link @deadbolt/core!InvalidArgumentError} when `name` is not a non-empty string
   */
  constructor(client: LockClient, name: string) {
    super(client, name, 'read');
  }
}

/**
 * The write lock of a {@link ReadWriteLock}: held by one owner at a time, while no other owner
 * holds the read lock. Its owner may take the read lock too, and keeps it after releasing this
 * one (a downgrade). An owner holding the read lock that asks for it gets a
 * {@link LockUpgradeError}. Get it from {@link ReadWriteLock.writeLock}.
 */
export class WriteLock extends ReadWriteLockHalf {
  /**
   * @param client - the client to use
   * @param name - the read-write lock's name
   * @throws {@link @deadbolt/core!InvalidArgumentError} when `name` is not a non-empty string
   */
  constructor(client: LockClient, name: string) {
    super(client, name, 'write');
  }

  /** @throws {@link LockUpgradeError} when the owner holds the read lock */
  protected override async tryAcquireOnce(attempt: AttemptContext): Promise<number | null> {
    const ttl = await super.tryAcquireOnce(attempt);
    if (ttl === UPGRADE_REFUSED) throw new LockUpgradeError(this.name, attempt.field.slice(this.client.id.length + 1));
    return ttl;
  }
}

// A reader field with the suffix would read as another owner's writer field.
function refuseWriterSuffix(ownerField: string, argument: string): void {
  if (ownerField.endsWith(':write')) {
    throw new InvalidArgumentError(argument, 'on a read-write lock an owner id must not end in ":write" or be "write"');
  }
}
