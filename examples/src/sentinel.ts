// Redis Sentinel: the same locks over an ioredis client and a node-redis Sentinel client that find
// the master through the Sentinels, and follow it when they fail over.
//
//   REDIS_SENTINELS=127.0.0.1:26379,127.0.0.1:26380,127.0.0.1:26381 REDIS_SENTINEL_NAME=mymaster npx tsx sentinel.ts
import { setTimeout as sleep } from 'node:timers/promises';
import { Redis } from 'ioredis';
import { createSentinel } from 'redis';
import { LockClient } from '@deadbolt/core';
import { ioredisExecutor } from '@deadbolt/adapter-ioredis';
import { nodeRedisExecutor } from '@deadbolt/adapter-node-redis';

const sentinels = (process.env.REDIS_SENTINELS ?? '127.0.0.1:26379').split(',').map((address) => {
  const [host = '127.0.0.1', port = '26379'] = address.split(':');
  return { host, port: Number(port) };
});
const name = process.env.REDIS_SENTINEL_NAME ?? 'mymaster';

// ioredis: a client made with `sentinels` and `name` is a plain Redis client.
const redis = new Redis({ sentinels, name });
// Each acquisition and release returns once a replica has it, so a failover does not lose it.
const locks = new LockClient(ioredisExecutor(redis), { replicaSync: { replicas: 1, timeout: 1_000 } });

// node-redis: hand the connected Sentinel client to the adapter.
const sentinel = await createSentinel({ name, sentinelRootNodes: sentinels }).connect();
const otherLocks = new LockClient(nodeRedisExecutor(sentinel));

// One service holds the lock; another, on the other driver, waits for it.
const held = await locks.lock('invoices:2026-11').acquire();
held.signal.addEventListener('abort', () => console.log('the lock was lost:', held.signal.reason));
const waiting = otherLocks.lock('invoices:2026-11').acquire({ waitTime: 10_000 });
await sleep(200);
await held.release();
const taken = await waiting;
console.log('the node-redis waiter was woken by the release and holds invoices:2026-11');
await taken.release();

await locks.close();
await otherLocks.close();
await redis.quit();
await sentinel.close();
