import type { Redis } from 'ioredis';
import { redisCall, type Connection } from './connection.js';
import { matchesGlob } from './glob.js';
import { nameFromPrefixed } from '@deadbolt/core/kit';
import { FAIR_LOCK_KEY_LAYOUT } from '@deadbolt/fair-lock';
import { SEMAPHORE_KEY_LAYOUT } from '@deadbolt/semaphore';
import { belongsToALock } from './keyNames.js';

/** Where a lock name was found; {@link findLockNames} returns every name with how it was found. */
export interface FoundNames {
  /** Hashes whose name matches: candidate locks, to be checked against the layout. */
  readonly hashes: ReadonlySet<string>;
  /** Names with a fair queue: locks that may be free while waiters queue. */
  readonly queued: ReadonlySet<string>;
  /** Names with subscribers on `redisson_sc:{name}`: candidate Redisson semaphores. */
  readonly semaphores: ReadonlySet<string>;
}

// A free fair lock has only its queue; a semaphore is found by its channel.
const QUEUE_PREFIX = FAIR_LOCK_KEY_LAYOUT.prefixes.queue;
const SEMAPHORE_CHANNEL_PREFIX = SEMAPHORE_KEY_LAYOUT.prefixes.channel;
// Big enough that a large keyspace takes few round trips, small enough that a reply stays small.
const SCAN_COUNT = 1_000;

/**
 * Finds every lock name matching `pattern` on every master, with SCAN (never KEYS, which blocks the
 * server for the whole keyspace): the hashes matching it, the fair queues whose lock name matches
 * (a free fair lock has only its queue), and the semaphore channels with subscribers.
 */
export async function findLockNames(connection: Connection, pattern: string): Promise<FoundNames> {
  const hashes = new Set<string>();
  const queued = new Set<string>();
  const semaphores = new Set<string>();
  for (const master of connection.masters()) {
    for (const key of await scanKeys(master, pattern, 'hash')) if (!belongsToALock(key)) hashes.add(key);
    for (const key of await scanKeys(master, `${QUEUE_PREFIX}:*`, 'list'))
      addMatching(queued, nameFromPrefixed(QUEUE_PREFIX, key), pattern);
    for (const channel of await semaphoreChannels(master))
      addMatching(semaphores, nameFromPrefixed(SEMAPHORE_CHANNEL_PREFIX, channel), pattern);
  }
  return { hashes, queued, semaphores };
}

function addMatching(names: Set<string>, name: string | undefined, pattern: string): void {
  if (name !== undefined && matchesGlob(pattern, name)) names.add(name);
}

/** Every key of one server matching `pattern` of type `type`, by a full SCAN iteration. */
async function scanKeys(node: Redis, pattern: string, type: 'hash' | 'list'): Promise<string[]> {
  const keys: string[] = [];
  let cursor = '0';
  do {
    const [next, batch] = await redisCall(`SCAN ${nodeName(node)}`, () =>
      node.scan(cursor, 'MATCH', pattern, 'COUNT', SCAN_COUNT, 'TYPE', type),
    );
    cursor = next;
    keys.push(...batch);
  } while (cursor !== '0');
  return keys;
}

/**
 * The semaphore channels that have subscribers on one server, classic and sharded: a Redisson
 * semaphore is a plain string of permits, told apart from any other counter only by its channel,
 * which exists while someone waits for a permit.
 */
async function semaphoreChannels(node: Redis): Promise<string[]> {
  const pattern = `${SEMAPHORE_CHANNEL_PREFIX}:*`;
  const classic = await redisCall('list pub/sub channels (PUBSUB CHANNELS)', () => node.pubsub('CHANNELS', pattern));
  const sharded = await redisCall('list sharded channels (PUBSUB SHARDCHANNELS)', () =>
    node.pubsub('SHARDCHANNELS', pattern),
  ).catch((error: unknown) => {
    // Before Redis 7 there are no sharded channels to list.
    if (error instanceof Error && /unknown subcommand/i.test(error.message)) return [];
    throw error;
  });
  return [...(classic as string[]), ...(sharded as string[])];
}

function nodeName(node: Redis): string {
  return `on ${node.options.host ?? '?'}:${node.options.port ?? '?'}`;
}
