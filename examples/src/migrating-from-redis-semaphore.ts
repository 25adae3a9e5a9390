// Migrating from redis-semaphore's Mutex: the Deadbolt side of each side-by-side snippet in the
// migration guide.
//
//   REDIS_URL=redis://localhost:6379 npx tsx migrating-from-redis-semaphore.ts
import { Redis } from 'ioredis';
import { LockClient } from '@deadbolt/core';
import { ioredisExecutor } from '@deadbolt/adapter-ioredis';

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

await locks.close();
await redis.quit();
