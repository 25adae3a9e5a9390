import type { Connection } from './connection.js';
import { CliError } from './errors.js';
import { MODE_FIELD } from '@deadbolt/rwlock';
import { exclusiveHolders, holdCount, isOwnerField } from './kinds/exclusive.js';
import { fairWaiters, hasFairQueue } from './kinds/fair.js';
import { decodeReadWrite, withReadHoldLeases } from './kinds/readWrite.js';
import { decodeSemaphore } from './kinds/semaphore.js';
import type { LockInfo } from './LockInfo.js';
import type { LockSnapshot } from './snapshot.js';

/**
 * Tells a lock's kind from its keys and decodes it:
 * - a hash with `mode` is a read-write lock;
 * - a hash of owner fields is a fair lock when a queue or deadlines exist beside it, a fenced lock
 *   when a token counter does, else a plain lock;
 * - no key at the name but a queue: a free fair lock with waiters; but a token counter: a free
 *   fenced lock;
 * - a string of permits whose `redisson_sc:{name}` channel has subscribers: a semaphore.
 *
 * @param subscribers - subscribers on the name's semaphore channel, when it was found by them
 * @returns the lock; `undefined` when nothing of a lock is there (free, nobody waits)
 * @throws {@link CliError} `not-a-lock` when the key at the name is something else
 */
export async function decodeLock(
  connection: Connection,
  snapshot: LockSnapshot,
  subscribers?: number,
): Promise<LockInfo | undefined> {
  const { name, type } = snapshot;
  if (type === 'none') return freeLock(snapshot);
  if (type === 'string' && subscribers !== undefined) {
    const semaphore = decodeSemaphore(snapshot, subscribers);
    if (semaphore) return semaphore;
  }
  if (type !== 'hash' || snapshot.hash === undefined) throw notALock(name, `a ${type}`);
  const ttl = snapshot.pttl >= 0 ? snapshot.pttl : null;
  const readWrite = decodeReadWrite(snapshot.hash);
  if (readWrite) {
    const readers = await withReadHoldLeases(connection, name, readWrite.readers);
    return {
      name,
      kind: 'read-write',
      held: true,
      ttl,
      mode: readWrite.mode,
      holders: [...readWrite.writers, ...readers],
      hash: snapshot.hash,
      waiters: [],
    };
  }
  const holders = exclusiveHolders(snapshot.hash);
  if (!holders || holders.length === 0)
    throw notALock(name, 'a hash whose fields are not owners (`<clientId>:<ownerId>` = hold count)');
  const common = { name, held: true, ttl, holders, hash: snapshot.hash };
  if (hasFairQueue(snapshot)) return { ...common, kind: 'fair', waiters: fairWaiters(snapshot) };
  if (snapshot.token !== null) return { ...common, kind: 'fenced', waiters: [], fencingToken: snapshot.token };
  return { ...common, kind: 'lock', waiters: [] };
}

/**
 * Whether one field of a hash, with its value, could be a lock's, of any kind: a read-write lock's
 * `mode`, or an owner's hold count. A hash with one field that is not is no lock ({@link decodeLock}
 * refuses it), so one field tells a hash that is certainly no lock without reading it all.
 */
export function isLockField(field: string, value: string): boolean {
  if (field === MODE_FIELD) return value === 'read' || value === 'write';
  return isOwnerField(field) && holdCount(value) !== undefined;
}

// Nobody holds it, yet its waiters queue (a fair lock) or its counter remembers (a fenced lock).
function freeLock(snapshot: LockSnapshot): LockInfo | undefined {
  const free = { name: snapshot.name, held: false, ttl: null, holders: [], hash: {} };
  if (hasFairQueue(snapshot)) return { ...free, kind: 'fair', waiters: fairWaiters(snapshot) };
  if (snapshot.token !== null) return { ...free, kind: 'fenced', waiters: [], fencingToken: snapshot.token };
  return undefined;
}

function notALock(name: string, what: string): CliError {
  return new CliError('not-a-lock', `"${name}" is ${what}, not a lock in Redisson's layout`);
}
