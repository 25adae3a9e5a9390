import { InvalidArgumentError, LockBase, type LockHost } from '@deadbolt/core';
import { call, heldLock, type LockKind } from '@deadbolt/core/kit';
import { readAcquire } from './commands/readAcquire.js';
import { readExtend, readWriteRenew } from './commands/readWriteRenew.js';
import { readWriteForceRelease } from './commands/readWriteForceRelease.js';
import { readRelease, writeRelease } from './commands/readWriteRelease.js';
import { readWriteState } from './commands/readWriteState.js';
import { writeAcquire } from './commands/writeAcquire.js';
import { writeExtend } from './commands/writeExtend.js';
import { writeHandOff } from './commands/writeHandOff.js';
import { LockUpgradeError } from './LockUpgradeError.js';
import type { ReadWriteMode } from './ReadWriteMode.js';
import { readWriteLockKeys, WRITER_FIELD_SUFFIX, type ReadWriteLockKeys } from './readWriteLockKeys.js';

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
 *   But when a writer of the same `LockClient` waits, the last write release passes the write
 *   lock straight to it, waking nobody (the client option `localHandoff`); not while the
 *   releasing owner keeps read holds: that downgrade goes to everyone.
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
   * @param client - the `LockClient` to use
   * @param name - the lock's name; a name with `{braces}` is its own cluster hash tag
   * @throws {@link @deadbolt/core!index.InvalidArgumentError} when `name` is not a non-empty string
   */
  constructor(client: LockHost, name: string) {
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
 * the watchdog's renewal command and the queries, which see the lock in this half's mode. Its
 * `forceUnlock` deletes the lock only when it is held in this half's mode (the read lock's leaves
 * a writer alone, and the other way round). For reference; applications get the halves from
 * {@link ReadWriteLock}.
 */
export abstract class ReadWriteLockHalf extends LockBase {
  /** Which lock of the pair this is. */
  readonly mode: ReadWriteMode;
  /** The keys, fields and channel of the read-write lock in Redisson's layout. */
  readonly keys: ReadWriteLockKeys;

  /**
   * @param client - the `LockClient` to use
   * @param name - the read-write lock's name
   * @param mode - which lock of the pair this is
   */
  protected constructor(client: LockHost, name: string, mode: ReadWriteMode) {
    super(client, name, (checked) => (mode === 'read' ? readLockKind(checked) : writeLockKind(checked)));
    this.mode = mode;
    this.keys = readWriteLockKeys(this.name);
  }
}

/**
 * The read lock of a {@link ReadWriteLock}: shared by any number of owners while no other owner
 * holds the write lock. Each hold has its own lease (`leaseTime`, or the watchdog's); the lock
 * lives as long as the longest. Get it from {@link ReadWriteLock.readLock}.
 */
export class ReadLock extends ReadWriteLockHalf {
  /**
   * @param client - the `LockClient` to use
   * @param name - the read-write lock's name
   * @throws {@link @deadbolt/core!index.InvalidArgumentError} when `name` is not a non-empty string
   */
  constructor(client: LockHost, name: string) {
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
   * @param client - the `LockClient` to use
   * @param name - the read-write lock's name
   * @throws {@link @deadbolt/core!index.InvalidArgumentError} when `name` is not a non-empty string
   */
  constructor(client: LockHost, name: string) {
    super(client, name, 'write');
  }
}

// What both halves declare alike: the hash, its channel (where every waiter waits), the renewal.
function halfKind(
  name: string,
  mode: ReadWriteMode,
): Pick<LockKind, 'kindName' | 'forceRelease' | 'state' | 'renew' | 'waitChannel' | 'held'> {
  const { channel } = readWriteLockKeys(name);
  return {
    kindName: mode,
    // Deletes only a lock held in this half's mode, and only while its hash is still as read.
    forceRelease: ({ request, holders }) => call(readWriteForceRelease, { name, mode, request, holders }),
    state: (field) => call(readWriteState, { name, field, mode }),
    renew: readWriteRenew,
    waitChannel: () => channel,
    held: heldLock,
  };
}

/**
 * The read lock's declaration. Read holds share the hash with other owners' holds, and Redisson's
 * read-lock watchdog sets every reader's lease to its own `lockWatchdogTimeout`: should that Java
 * process die, the lock would end before a longer Deadbolt lease. So the watchdog keeps a
 * fixed-lease read hold alive up to the end of its lease (never beyond).
 */
export function readLockKind(name: string): LockKind {
  const { writerField } = readWriteLockKeys(name);
  return {
    ...halfKind(name, 'read'),
    acquire: ({ field, hold, lease }) => {
      // An acquisition's owner that is not generated comes from its options (or a scope they began).
      refuseWriterSuffix(field, 'options.owner');
      return call(readAcquire, { name, field, writerField: writerField(field), hold, lease });
    },
    release: (field, hold) => call(readRelease, { name, field, hold }),
    // Other owners' holds share the hash: a read hold is only ever lengthened, so the order in
    // which its extends arrive does not matter and the request id goes unused.
    extend: (field, hold, lease) => call(readExtend, { name, field, hold, lease }),
    holdField: (field) => refuseWriterSuffix(field, 'owner'),
    guardsFixedLeases: true,
  };
}

/**
 * The write lock's declaration: holds counted under the writer field `<clientId>:<ownerId>:write`;
 * an owner holding the read lock is refused with a {@link LockUpgradeError}. Its last release
 * passes the write lock to a writer of the same client that waits (see the client option
 * `localHandoff`), unless the owner keeps read holds: that downgrade goes to everyone. The read
 * lock declares no hand-off: its holds are shared, and its waiters are never passed a write lock.
 */
export function writeLockKind(name: string): LockKind {
  const { writerField } = readWriteLockKeys(name);
  return {
    ...halfKind(name, 'write'),
    acquire: ({ field, hold, lease }) => {
      refuseWriterSuffix(field, 'options.owner');
      return call(writeAcquire, { name, field: writerField(field), readerField: field, hold, lease });
    },
    release: (field, hold) => call(writeRelease, { name, field: writerField(field), hold }),
    handOff: writeHandOff,
    extend: (field, hold, lease, request) =>
      call(writeExtend, { name, field: writerField(field), hold, lease, request }),
    holdField: (field) => writerField(refuseWriterSuffix(field, 'owner')),
    refused: (owner) => new LockUpgradeError(name, owner),
  };
}

// A reader field with the suffix would read as another owner's writer field.
function refuseWriterSuffix(ownerField: string, argument: string): string {
  if (ownerField.endsWith(WRITER_FIELD_SUFFIX)) {
    throw new InvalidArgumentError(argument, 'on a read-write lock an owner id must not end in ":write" or be "write"');
  }
  return ownerField;
}
