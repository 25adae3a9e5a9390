// Migrating from redis-semaphore's Mutex, Semaphore and MultiSemaphore: the Deadbolt side of each
// side-by-side snippet in the migration guide.
//
//   REDIS_URL=redis://localhost:6379 npx tsx migrating-from-redis-semaphore.ts
import { Redis } from 'ioredis';
import { LockClient } from '@deadbolt/core';
import { ioredisExecutor } from '@deadbolt/adapter-ioredis';
import { PermitWaitTimeoutError, Semaphore } from '@deadbolt/semaphore';

const redis = new Redis(process.env.REDIS_URL ?? 'redis://localhost:6379');
const locks = new LockClient(ioredisExecutor(redis));

// new Mutex(redisClient, 'lockingResource') + acquire() + release()
const mutex = locks.lock('lockingResource');
const held = await mutex.acquire({ waitTime: 10_000 }); // Mutex's default acquireTimeout
try {
  console.log('critical code');
} finally {
  await held.release();
}

// tryAcquire(): null instead of false when the lock is taken.
const maybe = await mutex.tryAcquire();
if (maybe === null) {
  console.log('taken: skip this run');
} else {
  try {
    console.log('tryAcquire: acquired');
  } finally {
    await maybe.release();
  }
}

// onLockLost and isAcquired: the held lock's signal, and the client's lockLost event.
locks.on('lockLost', ({ key, error }) => console.error(`lost ${key}: ${error.message}`));
await mutex.withLock(async (signal) => {
  for (let iteration = 1; iteration <= 3 && !signal.aborted; iteration++) {
    console.log(`critical cycle iteration ${iteration}`);
  }
});

// new Semaphore(redisClient, 'lockingResource', 5) + acquire() + release()
const semaphore = new Semaphore(locks, 'lockingResource');
await semaphore.trySetPermits(5); // the limit lives in Redis: set once, not passed by every process
const permit = await semaphore.acquire(1, { waitTime: 10_000 }); // Semaphore's default acquireTimeout
try {
  // maximum 5 simultaneous executions
} finally {
  await permit.release();
}

// new MultiSemaphore(redisClient, 'lockingResource', 5, 2) + acquire(): acquire(2), all or none.
{
  await using calls = await semaphore.acquire(2, { waitTime: 10_000 }); // given back when the block ends
  // make calls.permits (2) parallel calls to a service that allows 5 at once
}

// tryAcquire(): null instead of false; acquire() past its waitTime: PermitWaitTimeoutError.
const everything = await semaphore.acquire(5);
const none = await semaphore.tryAcquire(); // null: all 5 are taken
const timedOut = await semaphore.acquire(1, { waitTime: 100 }).catch((error: unknown) => error);
await everything.release();

// A new limit: each process's maxCount was the limit; here addPermits changes it for everyone.
await semaphore.addPermits(3); // 8 permits from now on

// What the comments above say, checked (quietly: the example prints only the Mutex part).
if (none !== null || !(timedOut instanceof PermitWaitTimeoutError) || (await semaphore.availablePermits()) !== 8) {
  throw new Error('the semaphore did not behave as the migration guide says');
}
await redis.del(semaphore.name); // the semaphore has no TTL: a run of the example leaves nothing behind

await locks.close();
await redis.quit();
