// Migrating from node-redlock (redlock v5, @sesamecare-oss/redlock): the Deadbolt side of each
// side-by-side snippet in the migration guide.
//
//   REDIS_URL=redis://localhost:6379 npx tsx migrating-from-node-redlock.ts
import { setTimeout as sleep } from 'node:timers/promises';
import { Redis } from 'ioredis';
import { LockClient } from '@deadbolt/core';
import { ioredisExecutor } from '@deadbolt/adapter-ioredis';

const something = () => sleep(20);
const somethingElse = () => sleep(20);

const redis = new Redis(process.env.REDIS_URL ?? 'redis://localhost:6379');
const locks = new LockClient(ioredisExecutor(redis));

// redlock.using(): no duration to pick; the watchdog renews the lock while the callback runs.
await locks.lock('account:322456').withLock(async (signal) => {
  await something();
  signal.throwIfAborted(); // throws the LockLostError if the lock was lost
  await somethingElse();
});
console.log('withLock: done');

// redlock.acquire() / lock.release() with no duration to pick: without a leaseTime the watchdog
// keeps the lock alive until you release it.
const held = await locks.lock('account:322456').acquire();
try {
  await something();
  await somethingElse();
} finally {
  await held.release();
}
console.log('acquire and release: done');

// A fixed duration, as redlock.acquire(resources, 5000), and lock.extend(5000).
const leased = await locks.lock('account:322456').acquire({ leaseTime: 5_000 });
try {
  await something();
  await leased.extend(5_000);
  await somethingElse();
} finally {
  await leased.release();
}
console.log('fixed lease and extend: done');

// retryCount: 0 ("is it locked?"): one attempt, null when someone else holds the lock.
const attempt = await locks.lock('account:322456').tryAcquire();
console.log(`tryAcquire: ${attempt === null ? 'taken' : 'acquired'}`);
await attempt?.release();

// retryCount x retryDelay: a wait time; the waiter sleeps until the release wakes it.
const waited = await locks.lock('account:322456').acquire({ waitTime: 2_000 });
await waited.release();
console.log('acquire with waitTime: done');

await locks.close();
await redis.quit();
