import type { Connection } from './connection.js';
import { decodeLock } from './detect.js';
import { CliError } from './errors.js';
import { semaphoreSubscribers } from './kinds/semaphore.js';
import type { LockInfo } from './LockInfo.js';
import { findLockNames } from './scan.js';
import { readSnapshot } from './snapshot.js';

/**
 * Reads one lock in full: its kind, holders with their hold counts (a reader's holds with their
 * leases), TTL, a fair lock's queue with deadlines, a fenced lock's token.
 *
 * @param connection - from {@link connect}
 * @param name - the lock's name (the key of its hash)
 * @returns the lock, or `null` when nobody holds it and nobody waits for it
 * @throws {@link CliError} `not-a-lock` when the key at `name` is something else; `no-permission`,
 *   `unreachable` or `redis` when Redis fails
 */
export async function inspectLock(connection: Connection, name: string): Promise<LockInfo | null> {
  const snapshot = await readSnapshot(connection, name);
  if (snapshot.type !== 'string') return (await decodeLock(connection, snapshot)) ?? null;
  const subscribers = await semaphoreSubscribers(connection, name);
  const found = subscribers > 0 ? await decodeLock(connection, snapshot, subscribers) : undefined;
  if (found) return found;
  throw new CliError(
    'not-a-lock',
    `"${name}" is a string, not a lock (a Redisson semaphore is a string too, but one nobody waits on cannot be told from any other)`,
  );
}

/** Options of {@link listLocks}. */
export interface ListOptions {
  /** A Redis glob over lock names (`orders:*`); every lock when absent. */
  readonly pattern?: string;
}

// Locks read at once: enough to hide round trips, few enough not to flood a busy server.
const CONCURRENCY = 16;

/**
 * Every lock on the server (every master of a cluster) whose name matches the pattern, found
 * with SCAN and sorted by name: locks held, fair locks with waiters, semaphores with waiters.
 * Keys that belong to a lock (hold markers, request records, queues, counters, read-hold keys)
 * are read as part of it, and hashes that are not in a lock's layout are left out.
 *
 * @param connection - from {@link connect}
 * @throws {@link CliError} `no-permission`, `unreachable` or `redis` when Redis fails
 */
export async function listLocks(connection: Connection, options: ListOptions = {}): Promise<LockInfo[]> {
  const found = await findLockNames(connection, options.pattern ?? '*');
  const names = [...new Set([...found.hashes, ...found.queued, ...found.semaphores])];
  const locks = await mapLimited(names, CONCURRENCY, (name) => listed(connection, name, found.semaphores.has(name)));
  return locks
    .filter((lock): lock is LockInfo => lock !== undefined)
    .sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
}

// One listed name; a key that turned out not to be a lock (or went away meanwhile) is skipped.
async function listed(
  connection: Connection,
  name: string,
  bySemaphoreChannel: boolean,
): Promise<LockInfo | undefined> {
  const snapshot = await readSnapshot(connection, name).catch(skipNotALock);
  if (snapshot === undefined) return undefined;
  const subscribers = bySemaphoreChannel ? await semaphoreSubscribers(connection, name) : undefined;
  return decodeLock(connection, snapshot, subscribers).catch(skipNotALock);
}

function skipNotALock(error: unknown): undefined {
  if (error instanceof CliError && error.code === 'not-a-lock') return undefined;
  throw error;
}

async function mapLimited<T, R>(items: readonly T[], limit: number, fn: (item: T) => Promise<R>): Promise<R[]> {
  const results: R[] = new Array<R>(items.length);
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const at = next++;
      results[at] = await fn(items[at] as T);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
  return results;
}
