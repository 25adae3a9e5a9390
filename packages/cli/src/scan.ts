import type { Redis } from 'ioredis';
import { redisCall, type Connection } from './connection.js';
import { matchesGlob } from './glob.js';
import { nameFromPrefixed } from '@deadbolt/core/kit';
import { FAIR_LOCK_KEY_LAYOUT } from '@deadbolt/fair-lock';
import { SEMAPHORE_KEY_LAYOUT } from '@deadbolt/semaphore';
import { isLockField } from './detect.js';
import { belongsToALock } from './keyNames.js';

/** Where a lock name was found; {@link findLockNames} returns every name with how it was found. */
export interface FoundNames {
  /**
   * Hashes whose name matches and one of whose fields, picked at random, is a lock's: candidate
   * locks, to be read in full and checked against the layout.
   */
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
 * server for the whole keyspace): the hashes matching it that may be locks, the fair queues whose
 * lock name matches (a free fair lock has only its queue), and the semaphore channels with
 * subscribers. Of each hash one field is read (HRANDFIELD), never the whole hash: an application's
 * hashes (sessions, carts) are told from locks without being pulled over the wire.
 */
export async function findLockNames(connection: Connection, pattern: string): Promise<FoundNames> {
  const hashes = new Set<string>();
  const queued = new Set<string>();
  const semaphores = new Set<string>();
  for (const master of connection.masters()) {
    for await (const batch of scanBatches(master, pattern, 'hash'))
      for (const key of await mayBeLocks(
        master,
        batch.filter((key) => !belongsToALock(key)),
      ))
        hashes.add(key);
    for await (const batch of scanBatches(master, `${QUEUE_PREFIX}:*`, 'list'))
      for (const key of batch) addMatching(queued, nameFromPrefixed(QUEUE_PREFIX, key), pattern);
    for (const channel of await semaphoreChannels(master))
      addMatching(semaphores, nameFromPrefixed(SEMAPHORE_CHANNEL_PREFIX, channel), pattern);
  }
  return { hashes, queued, semaphores };
}

function addMatching(names: Set<string>, name: string | undefined, pattern: string): void {
  if (name !== undefined && matchesGlob(pattern, name)) names.add(name);
}

/** Every key of one server matching `pattern` of type `type`, by a full SCAN iteration, a batch at a time. */
async function* scanBatches(node: Redis, pattern: string, type: 'hash' | 'list'): AsyncGenerator<string[]> {
  let cursor = '0';
  do {
    const [next, batch] = await redisCall(`SCAN ${nodeName(node)}`, () =>
      node.scan(cursor, 'MATCH', pattern, 'COUNT', SCAN_COUNT, 'TYPE', type),
    );
    cursor = next;
    yield batch;
  } while (cursor !== '0');
}

/**
 * The hashes of a batch that may be locks: one field of each, picked at random, is a lock's
 * ({@link isLockField}). One pipeline per batch, on the node that holds the keys.
 */
async function mayBeLocks(node: Redis, hashes: readonly string[]): Promise<readonly string[]> {
  if (hashes.length === 0) return [];
  const pipeline = node.pipeline();
  for (const key of hashes) pipeline.hrandfield(key, 1, 'WITHVALUES');
  const replies = await redisCall(`sample hash fields (HRANDFIELD) ${nodeName(node)}`, async () => {
    const results = (await pipeline.exec()) ?? [];
    const refused = results.find(([error]) => error !== null)?.[0];
    if (refused) throw refused;
    return results.map(([, reply]) => reply);
  });
  // A hash deleted since the SCAN samples nothing, and is no lock any more.
  return hashes.filter((_, i) => {
    const [field, value] = (replies[i] ?? []) as unknown[];
    return typeof field === 'string' && typeof value === 'string' && isLockField(field, value);
  });
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
