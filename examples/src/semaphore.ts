// A semaphore: at most two report exports run at once across every process; a rebuild that needs
// both permits waits for them, holding none meanwhile, and maintenance drains and restores them.
//
//   REDIS_URL=redis://localhost:6379 npx tsx semaphore.ts
import { Redis } from 'ioredis';
import { LockClient } from '@deadbolt/core';
import { ioredisExecutor } from '@deadbolt/adapter-ioredis';
import { PermitWaitTimeoutError, Semaphore } from '@deadbolt/semaphore';

const redis = new Redis(process.env.REDIS_URL ?? 'redis://localhost:6379');
const locks = new LockClient(ioredisExecutor(redis));

const exports = new Semaphore(locks, 'report-exports');
await exports.trySetPermits(2); // at most two exports run at once, across every process

const first = await exports.acquire();
const second = await exports.acquire();
const third = await exports.tryAcquire();
console.log(`a third export, tryAcquire: ${third === null ? 'null' : 'acquired'}`);

// The rebuild needs both permits at once. It waits by pub/sub and holds none while it waits, so
// the permit the first export gives back stays free for others until the second comes back too.
const rebuild = exports.acquire(2, { waitTime: 60_000 });
await first.release();
console.log(`one permit back: ${await exports.availablePermits()} available, the rebuild waits`);
await second.release();
{
  await using held = await rebuild; // given back when the block ends
  console.log(`the rebuild holds ${held.permits} permits`);
  try {
    await exports.acquire(1, { waitTime: 100 });
  } catch (error) {
    if (!(error instanceof PermitWaitTimeoutError)) throw error;
    console.log(`an export gave up: ${error.message}`);
  }
}

// Maintenance takes every permit (new exports wait), then gives them back from wherever it runs.
const drained = await exports.drainPermits();
console.log(`drained ${drained}, available: ${await exports.availablePermits()}`);
await exports.release(drained);
console.log(`restored, available: ${await exports.availablePermits()}`);

await locks.close();
await redis.quit();
