// The fair lock: waiters are granted the lock in the order they asked for it, across processes.
//
//   REDIS_URL=redis://localhost:6379 npx tsx fair-lock.ts
import { setTimeout as sleep } from 'node:timers/promises';
import { Redis } from 'ioredis';
import { LockClient } from '@deadbolt/core';
import { ioredisExecutor } from '@deadbolt/adapter-ioredis';
import { FairLock } from '@deadbolt/fair-lock';

const redis = new Redis(process.env.REDIS_URL ?? 'redis://localhost:6379');
const locks = new LockClient(ioredisExecutor(redis));

const printer = new FairLock(locks, 'printer');
const busy = await printer.acquire();

// Four jobs ask one after another while the printer is busy; they queue in Redis.
const jobs = ['A', 'B', 'C', 'D'].map(async (job, i) => {
  await sleep(i * 50);
  await printer.withLock(async () => {
    console.log(`job ${job} prints`);
  });
});

await sleep(400);
await busy.release();
await Promise.all(jobs); // prints A, B, C, D: arrival order

// A waiter that gives up leaves the queue at once; the ones behind it move up.
const held = await printer.acquire();
const impatient = printer.acquire({ waitTime: 100 }).then(
  () => 'acquired',
  (error: Error) => error.name,
);
console.log(`impatient job: ${await impatient}`);
await held.release();

await locks.close();
await redis.quit();
