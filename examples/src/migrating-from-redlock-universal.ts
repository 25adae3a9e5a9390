// Migrating from redlock-universal (0.8): the Deadbolt side of each side-by-side snippet in the
// migration guide.
//
//   REDIS_URL=redis://localhost:6379 npx tsx migrating-from-redlock-universal.ts
import { setTimeout as sleep } from 'node:timers/promises';
import { Redis } from 'ioredis';
import { createClient } from 'redis';
import { LockClient, LockLostError, LockWaitTimeoutError } from '@deadbolt/core';
import { ioredisExecutor } from '@deadbolt/adapter-ioredis';
import { nodeRedisExecutor } from '@deadbolt/adapter-node-redis';
import { RedLock } from '@deadbolt/redlock';

const processData = () => sleep(20);
const doWork = () => sleep(20);
const url = process.env.REDIS_URL ?? 'redis://localhost:6379';

// new IoredisAdapter(new Redis()): an executor over your ioredis client, and one LockClient.
const redis = new Redis(url);
const locks = new LockClient(ioredisExecutor(redis));

// new NodeRedisAdapter(client): the same over a connected node-redis client.
const client = await createClient({ url }).connect();
const nodeRedisLocks = new LockClient(nodeRedisExecutor(client));

// createLock({ adapter, key: 'my-resource' }): a handle by name, cheap to make and to share.
const lock = locks.lock('my-resource');

// lock.using(): no ttl to pick; the watchdog renews the lock while the callback runs.
const result = await lock.withLock(async (signal) => {
  await processData();
  signal.throwIfAborted(); // throws the LockLostError if the lock was lost
  return 'done';
});
console.log(`withLock: ${result}`);

// lock.acquire() and lock.release(handle): the held lock is the handle.
const held = await lock.acquire();
try {
  await doWork();
} finally {
  await held.release();
}
console.log('acquire and release: done');

// Or released when the block ends, also when it throws.
{
  await using block = await lock.acquire();
  await doWork();
  console.log(`await using: held by owner ${block.owner}`);
}

// A fixed ttl, as createLock({ ..., ttl: 30000 }), and lock.extend(handle, 10000).
const leased = await lock.acquire({ leaseTime: 30_000 });
try {
  await leased.extend(10_000); // throws LockLostError where extend() resolved false
  console.log(`extend: expires within 10 s: ${((await lock.remainingTtl()) ?? Infinity) <= 10_000}`);
} finally {
  await leased.release();
}

// A release after the lease ran out throws instead of resolving false.
const brief = await lock.acquire({ leaseTime: 100 });
await sleep(200);
try {
  await brief.release();
} catch (error) {
  if (!(error instanceof LockLostError)) throw error;
  console.log(`release after the lease ended: ${error.name}`);
}

// lock.isLocked(key): asked of the lock itself; any client sees the same lock.
const other = await nodeRedisLocks.lock('my-resource').acquire();
console.log(`isLocked: ${await lock.isLocked()}`);

// retryAttempts: 0: one attempt, null instead of a LockAcquisitionError when the lock is taken.
const attempt = await lock.tryAcquire();
console.log(`tryAcquire while node-redis holds it: ${attempt === null ? 'null' : 'acquired'}`);

// retryAttempts x retryDelay: a wait time; the waiter sleeps until a release wakes it, and gives
// up with LockWaitTimeoutError.
try {
  await lock.acquire({ waitTime: 300 });
} catch (error) {
  if (!(error instanceof LockWaitTimeoutError)) throw error;
  console.log(`acquire with waitTime: ${error.name}`);
}
await other.release();

// Three databases of one server only to try it out: in production, independent servers.
const servers = [1, 2, 3].map((db) => new Redis(url, { db }));
// createRedlock({ adapters, key, ttl }): one LockClient per independent server, the same name on each.
const clients = servers.map((server) => new LockClient(ioredisExecutor(server)));
const redlock = new RedLock(clients.map((each) => each.lock('distributed-resource')));
await redlock.withLock(async (signal) => {
  console.log(`RedLock: held by at least ${redlock.quorum} of ${clients.length}, lost: ${signal.aborted}`);
});

await Promise.all(clients.map((each) => each.close()));
await Promise.all(servers.map((server) => server.quit()));
await nodeRedisLocks.close();
await client.close();
await locks.close();
await redis.quit();
