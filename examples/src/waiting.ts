// Waiting for a lock: no waiting, a wait time, an AbortSignal; holding it for a block with
// `await using` or for a callback with `withLock`; a fixed lease instead of the watchdog.
//
//   REDIS_URL=redis://localhost:6379 npx tsx waiting.ts
import { Redis } from 'ioredis';
import { LockClient, LockWaitTimeoutError } from '@deadbolt/core';
import { ioredisExecutor } from '@deadbolt/adapter-ioredis';

const redis = new Redis(process.env.REDIS_URL ?? 'redis://localhost:6379');
const locks = new LockClient(ioredisExecutor(redis));
const lock = locks.lock('orders:42');

// Someone else holds the lock for now.
const theirs = await lock.acquire({ owner: 'someone-else' });

// One attempt, no waiting: null when someone else holds the lock.
const maybe = await lock.tryAcquire();
console.log(`tryAcquire: ${maybe === null ? 'null, the lock is taken' : 'acquired'}`);

// Wait at most 200 ms: LockWaitTimeoutError after that.
try {
  await lock.acquire({ waitTime: 200 });
} catch (error) {
  if (!(error instanceof LockWaitTimeoutError)) throw error;
  console.log(`acquire with waitTime: ${error.message}`);
}

// Abort a wait from outside: the promise rejects with the signal's reason.
const controller = new AbortController();
setTimeout(() => controller.abort(new Error('the client went away')), 200);
try {
  await lock.acquire({ signal: controller.signal });
} catch (error) {
  console.log(`acquire with a signal: ${(error as Error).message}`);
}

await theirs.release();

// Held for the block: released when it ends, also when it throws.
{
  await using held = await lock.acquire({ waitTime: 2_000 });
  console.log(`await using: held by owner ${held.owner}`);
}

// Held for the callback: released when it returns or throws; its result is withLock's.
const total = await lock.withLock(
  async (signal) => {
    signal.throwIfAborted(); // stop before writing if the lock was lost
    return 3 * 14;
  },
  { waitTime: 2_000 },
);
console.log(`withLock returned ${total}`);

// A fixed lease instead of the watchdog: the lock frees itself after 10 s at the latest.
const leased = await lock.acquire({ leaseTime: 10_000 });
console.log(`fixed lease: expires in ${await lock.remainingTtl()} ms`);
await leased.release();

await locks.close();
await redis.quit();
