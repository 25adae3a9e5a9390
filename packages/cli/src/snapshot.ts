import type { ChainableCommander } from 'ioredis';
import { redisCall, type Connection } from './connection.js';
import { CliError } from './errors.js';
import { lockKeys } from './keyNames.js';

/** The raw keys of one lock name, read in one transaction so that they agree with each other. */
export interface LockSnapshot {
  readonly name: string;
  /** The Redis type of the key at the name: `hash`, `string`, `none`, ... */
  readonly type: string;
  /** The hash's fields and values; `undefined` when the key is no hash. */
  readonly hash: Readonly<Record<string, string>> | undefined;
  /** PTTL of the key at the name: -2 when it does not exist, -1 when it has no expiry. */
  readonly pttl: number;
  /** The fair queue's entries, first to last (empty when there is none or it is no list). */
  readonly queue: readonly string[];
  /** The waiters' deadlines by owner field (empty when there are none). */
  readonly deadlines: ReadonlyMap<string, number>;
  /** The fenced lock's counter as stored; `null` when there is none. */
  readonly token: string | null;
  /** The value of a string key at the name (a semaphore's permits); `null` otherwise. */
  readonly value: string | null;
}

/**
 * The most hash fields read from a key that may not be a lock at all; a lock has one per owner,
 * so a bigger hash is some application's data and is not pulled over the wire.
 */
export const MAX_LOCK_FIELDS = 10_000;

/** Reads what the keys of the lock named `name` hold (two round trips; the second atomic). */
export async function readSnapshot(connection: Connection, name: string): Promise<LockSnapshot> {
  const keys = lockKeys(name);
  const [type, size] = await transaction(connection, `read "${name}"`, (multi) => multi.type(name).hlen(name));
  const isHash = type === 'hash';
  if (isHash && Number(size) > MAX_LOCK_FIELDS) {
    throw new CliError('not-a-lock', `"${name}" is a hash of ${String(size)} fields, not a lock in Redisson's layout`);
  }
  const replies = await transaction(connection, `read "${name}"`, (multi) => {
    const chain = multi
      .pttl(name)
      .lrange(keys.queue, 0, -1)
      .zrange(keys.timeouts, '0', '-1', 'WITHSCORES')
      .get(keys.token);
    if (isHash) return chain.hgetall(name);
    return type === 'string' ? chain.get(name) : chain;
  });
  const [pttl, queue, deadlines, token, last] = replies;
  return {
    name,
    type: String(type),
    hash: isHash ? (last as Record<string, string>) : undefined,
    pttl: Number(pttl),
    queue: Array.isArray(queue) ? queue.map(String) : [],
    deadlines: Array.isArray(deadlines) ? pairsToMap(deadlines.map(String)) : new Map(),
    token: typeof token === 'string' ? token : null,
    value: type === 'string' && typeof last === 'string' ? last : null,
  };
}

/**
 * Runs a MULTI/EXEC on the node of the lock's slot. A reply that is an error (a key of another
 * type at a derived name: WRONGTYPE) reads as `null`, so such a key is taken as absent; a refused
 * command (NOPERM) fails the whole read.
 */
async function transaction(
  connection: Connection,
  what: string,
  build: (multi: ChainableCommander) => ChainableCommander,
): Promise<unknown[]> {
  const results = await redisCall(what, async () => {
    const replies = await build(connection.client.multi()).exec();
    if (replies === null) throw new Error('the transaction was aborted');
    return replies;
  });
  return results.map(([error, value]) => (error ? null : value));
}

function pairsToMap(flat: readonly string[]): Map<string, number> {
  const map = new Map<string, number>();
  for (let i = 0; i + 1 < flat.length; i += 2) map.set(flat[i] ?? '', Number(flat[i + 1]));
  return map;
}

/** The remaining leases of the given keys, in ms; `null` for a key that is gone. One pipeline. */
export async function remainingLeases(connection: Connection, keys: readonly string[]): Promise<(number | null)[]> {
  if (keys.length === 0) return [];
  const pipeline = connection.client.pipeline();
  for (const key of keys) pipeline.pttl(key);
  const replies = await redisCall('read the leases of read holds', async () => (await pipeline.exec()) ?? []);
  return replies.map(([error, ttl]) => (error || Number(ttl) < -1 ? null : Number(ttl)));
}
