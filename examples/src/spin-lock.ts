// A spin lock: Redisson's RSpinLock, for deployments without pub/sub (a proxy, a managed service
// with pub/sub disabled, an ACL user with no channels). Its waiters poll with exponential backoff;
// nothing subscribes, nothing publishes.
//
//   REDIS_URL=redis://localhost:6379 npx tsx spin-lock.ts
import { Redis } from 'ioredis';
import { LockClient } from '@deadbolt/core';
import { ioredisExecutor } from '@deadbolt/adapter-ioredis';
import { SpinLock } from '@deadbolt/spin-lock';

const redis = new Redis(process.env.REDIS_URL ?? 'redis://localhost:6379');
const locks = new LockClient(ioredisExecutor(redis));
const buildReport = () => new Promise((resolve) => setTimeout(resolve, 50));

const lock = new SpinLock(locks, 'reports:nightly', { backoff: { initialDelay: 5, maxDelay: 200 } });
await lock.withLock(
  async (signal) => {
    signal.throwIfAborted();
    await buildReport();
  },
  { waitTime: 10_000 },
);
console.log('report built');

// Another task waits while the lock is held: it tries, sleeps 5, 10, 20, ... up to 200 ms, tries again.
const held = await lock.acquire();
const waiting = lock.acquire({ waitTime: 10_000 });
await new Promise((resolve) => setTimeout(resolve, 500));
console.log(
  `while waiting, channels subscribed: ${locks.activity().channels.length}, on the server: ${(await redis.pubsub('CHANNELS')).length}`,
);
await held.release();
const next = await waiting; // within about one backoff delay of the release
console.log(`the waiter holds it: ${await lock.isHeldBy(next.owner)}`);
await next.release();

// A wait that runs out, and an abort, end as on every lock.
{
  await using _held = await lock.acquire();
  const attempt = await lock.tryAcquire({ waitTime: 100 });
  console.log(`tryAcquire while held: ${attempt === null ? 'null' : 'acquired'}`);
  await lock
    .acquire({ signal: AbortSignal.timeout(100) })
    .catch((error: Error) => console.log(`aborted: ${error.name}`));
}
console.log(`locked after all: ${await lock.isLocked()}`);

await locks.close();
await redis.quit();
