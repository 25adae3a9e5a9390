// Getting started with ioredis: a lock client over the ioredis connection you already have, and
// one piece of work that only one process at a time runs.
//
//   REDIS_URL=redis://localhost:6379 npx tsx getting-started-ioredis.ts
import { Redis } from 'ioredis';
import { LockClient } from '@deadbolt/core';
import { ioredisExecutor } from '@deadbolt/adapter-ioredis';

const redis = new Redis(process.env.REDIS_URL ?? 'redis://localhost:6379');
const locks = new LockClient(ioredisExecutor(redis));

const pages = await locks.lock('report:2026-11').withLock(async (signal) => {
  // One holder at a time across every process; `signal` aborts if the lock is lost.
  console.log(`rendering the report, lock lost: ${signal.aborted}`);
  return 12;
});
console.log(`released the lock; the report has ${pages} pages`);

await locks.close(); // closes what Deadbolt opened; your `redis` stays open
await redis.quit();
