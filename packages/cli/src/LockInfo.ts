/**
 * What the `deadbolt` command reads of a lock: the same shape for every kind, printed as tables or
 * as `--json`. Times are milliseconds; deadlines are wall-clock epoch milliseconds.
 */

/**
 * The kind of a lock, as far as its keys tell:
 * - `lock`: a reentrant lock hash (Deadbolt's `Lock`, Redisson's `RLock`). A fair lock nobody
 *   waits for has no queue and looks the same.
 * - `fair`: a lock with a waiting queue (`redisson_lock_queue:{name}`) or deadlines.
 * - `read-write`: a hash with a `mode` field.
 * - `fenced`: a lock hash beside a token counter (`redisson_lock_token:{name}`).
 * - `semaphore`: a Redisson semaphore (a string of permits) found through its channel
 *   `redisson_sc:{name}`, which exists only while someone waits on it.
 */
export type LockKindName = 'lock' | 'fair' | 'read-write' | 'fenced' | 'semaphore';

/** An owner as Redisson's layout names it: `<clientId>:<ownerId>` (Redisson: `<uuid>:<threadId>`). */
export interface OwnerName {
  /** The hash field or queue entry as stored. */
  readonly field: string;
  /** The client instance (a UUID by default; Redisson's connection manager id). */
  readonly clientId: string;
  /** The owner within the client (Deadbolt's owner id; Redisson's thread id). */
  readonly ownerId: string;
}

/** One owner's holds on a lock. */
export interface Holder extends OwnerName {
  /** `writer` or `reader` on a read-write lock; `owner` on every other kind. */
  readonly role: 'owner' | 'writer' | 'reader';
  /** How many times it holds the lock (re-entries count). */
  readonly holds: number;
  /**
   * A reader's holds: each hold's remaining lease in ms (`null`: the hold's key is gone, its lease
   * ran out; -1: the key has no expiry). Absent for other roles, whose holds share the lock's TTL.
   */
  readonly holdTtls?: readonly (number | null)[];
}

/** A waiter in a fair lock's queue. */
export interface QueuedWaiter extends OwnerName {
  /** Its place, 1 first. */
  readonly position: number;
  /** When others may drop it as dead unless it checks in, epoch ms; `null` when it has none. */
  readonly deadline: number | null;
}

/** A lock's state at one moment. */
export interface LockInfo {
  /** The lock's name: the Redis key of its hash. */
  readonly name: string;
  readonly kind: LockKindName;
  /**
   * Whether anyone holds it (a fair lock may be free while its queue waits). Always `false` for a
   * semaphore: its permits are counted, their holders are not recorded.
   */
  readonly held: boolean;
  /** Remaining lease in ms; `null` when it has no expiry or nobody holds it. */
  readonly ttl: number | null;
  /** A read-write lock's `mode`. */
  readonly mode?: 'read' | 'write';
  readonly holders: readonly Holder[];
  /**
   * The lock's hash as read, field -> value as `HGETALL` gives it (`{}` when there is none: a free
   * fair or fenced lock, a semaphore). `forceUnlock` passes it on, so that the lock is deleted only
   * while it is still exactly what was read.
   */
  readonly hash: Readonly<Record<string, string>>;
  /** A fair lock's queue, first to last (empty for other kinds). */
  readonly waiters: readonly QueuedWaiter[];
  /** A fenced lock's counter: the token of its latest acquisition, a decimal string (64-bit). */
  readonly fencingToken?: string;
  /** A semaphore's available permits. */
  readonly permits?: number;
  /** A semaphore's subscribers on its channel: the connections waiting for permits. */
  readonly subscribers?: number;
}

/** Splits an owner field at its first colon: a Deadbolt client id never has one, nor a Redisson UUID. */
export function ownerName(field: string): OwnerName {
  const at = field.indexOf(':');
  return at < 0
    ? { field, clientId: field, ownerId: '' }
    : { field, clientId: field.slice(0, at), ownerId: field.slice(at + 1) };
}
