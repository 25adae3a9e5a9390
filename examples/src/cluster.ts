// Redis Cluster: the same locks over an ioredis Cluster, a node-redis cluster client and a Valkey
// GLIDE GlideClusterClient. Every key
// of a lock shares one slot; waiters are woken by sharded pub/sub (SSUBSCRIBE/SPUBLISH) on Redis 7.
//
//   REDIS_CLUSTER_NODES=127.0.0.1:7000,127.0.0.1:7001,127.0.0.1:7002 npx tsx cluster.ts
import { setTimeout as sleep } from 'node:timers/promises';
import { GlideClusterClient } from '@valkey/valkey-glide';
import { Cluster } from 'ioredis';
import { createCluster } from 'redis';
import { LockClient } from '@deadbolt/core';
import { ioredisExecutor } from '@deadbolt/adapter-ioredis';
import { nodeRedisExecutor } from '@deadbolt/adapter-node-redis';
import { valkeyGlideExecutor } from '@deadbolt/adapter-valkey-glide';

const seeds = (process.env.REDIS_CLUSTER_NODES ?? '127.0.0.1:7000').split(',').map((address) => {
  const [host = '127.0.0.1', port = '7000'] = address.split(':');
  return { host, port: Number(port) };
});

// ioredis: hand the Cluster client to the adapter.
const ioredisCluster = new Cluster(seeds);
const locks = new LockClient(ioredisExecutor(ioredisCluster));

// node-redis: hand the connected cluster client to the adapter.
const nodeRedisCluster = await createCluster({
  rootNodes: seeds.map(({ host, port }) => ({ url: `redis://${host}:${port}` })),
}).connect();
const otherLocks = new LockClient(nodeRedisExecutor(nodeRedisCluster), { pubsub: 'sharded' });

// Valkey GLIDE: hand the cluster client and the configuration it was made with to the adapter.
const connection = { addresses: seeds };
const glideCluster = await GlideClusterClient.createClient(connection);
const glideLocks = new LockClient(valkeyGlideExecutor(glideCluster, { connection }));

// Braces pick the slot: both locks of order 42 live on the node that owns "order:42".
const payment = locks.lock('{order:42}:payment');
const shipping = locks.lock('{order:42}:shipping');

// One service holds the payment lock; another, on the other driver, waits for it.
const held = await payment.acquire();
const waiting = otherLocks.lock('{order:42}:payment').acquire({ waitTime: 10_000 });
await sleep(200);
await held.release(); // publishes on the lock's channel with SPUBLISH
const taken = await waiting;
console.log('the node-redis waiter was woken by the release and holds {order:42}:payment');
await taken.release();

await shipping.withLock(async () => {
  console.log('ioredis holds {order:42}:shipping in the same slot');
});

// A third service, on GLIDE, waits for the shipping lock the node-redis service holds.
const shipped = await otherLocks.lock('{order:42}:shipping').acquire();
const glideWaiting = glideLocks.lock('{order:42}:shipping').acquire({ waitTime: 10_000 });
await sleep(200);
await shipped.release();
await (await glideWaiting).release();
console.log('the GLIDE waiter was woken by the release and held {order:42}:shipping');

await locks.close();
await otherLocks.close();
await glideLocks.close();
await ioredisCluster.quit();
await nodeRedisCluster.close();
glideCluster.close();
