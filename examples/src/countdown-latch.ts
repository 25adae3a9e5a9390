// A count-down latch: a deploy waits, without polling, until three services have reported ready,
// from whichever processes they run in.
//
//   REDIS_URL=redis://localhost:6379 npx tsx countdown-latch.ts
import { Redis } from 'ioredis';
import { LockClient } from '@deadbolt/core';
import { ioredisExecutor } from '@deadbolt/adapter-ioredis';
import { CountDownLatch } from '@deadbolt/countdown-latch';

const redis = new Redis(process.env.REDIS_URL ?? 'redis://localhost:6379');
const locks = new LockClient(ioredisExecutor(redis));

const ready = new CountDownLatch(locks, 'deploy:42:ready');
await ready.trySetCount(3); // three services must report ready

// The deploy waits; the last countdown wakes it (and every other waiter, in any process).
const deploy = ready.await({ waitTime: 60_000 }).then((opened) => console.log(`deploy may start: ${opened}`));
for (const service of ['api', 'worker', 'scheduler']) {
  console.log(`${service} reports ready`);
  await new CountDownLatch(locks, 'deploy:42:ready').countDown();
}
await deploy;

// An open latch can be set again; a wait whose time runs out resolves false.
await ready.trySetCount(1);
console.log(`second round, after waiting 100 ms: ${await ready.await({ waitTime: 100 })}`);
console.log(`deleted: ${await ready.delete()}, count: ${await ready.getCount()}`);

await locks.close();
await redis.quit();
