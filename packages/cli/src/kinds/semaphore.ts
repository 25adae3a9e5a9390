import { semaphoreChannelName } from '@deadbolt/semaphore';
import { redisCall, type Connection } from '../connection.js';
import type { LockInfo } from '../LockInfo.js';
import type { LockSnapshot } from '../snapshot.js';

/**
 * A Redisson semaphore (`RSemaphore`): a string key at the name holding the available permits,
 * announced on `redisson_sc:{name}`. `undefined` when the key holds no whole number. Only
 * semaphores someone waits on are found (by their channel's subscribers): a string of digits
 * alone could be any counter.
 */
export function decodeSemaphore(snapshot: LockSnapshot, subscribers: number): LockInfo | undefined {
  if (snapshot.value === null || !/^-?\d+$/.test(snapshot.value)) return undefined;
  return {
    name: snapshot.name,
    kind: 'semaphore',
    held: false,
    ttl: snapshot.pttl >= 0 ? snapshot.pttl : null,
    holders: [],
    hash: {},
    waiters: [],
    permits: Number(snapshot.value),
    subscribers,
  };
}

/**
 * How many connections are subscribed to the semaphore channel of `name` on every master,
 * classic and sharded: the processes waiting for a permit (a Redisson client subscribes once per
 * name, however many of its threads wait).
 */
export async function semaphoreSubscribers(connection: Connection, name: string): Promise<number> {
  const channel = semaphoreChannelName(name);
  let count = 0;
  for (const master of connection.masters()) {
    const classic = await redisCall('count subscribers (PUBSUB NUMSUB)', () => master.pubsub('NUMSUB', channel));
    const sharded = await master.pubsub('SHARDNUMSUB', channel).catch(() => [channel, 0]);
    count += Number(classic[1] ?? 0) + Number((sharded as unknown[])[1] ?? 0);
  }
  return count;
}
