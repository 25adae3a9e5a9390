// A permit-expirable semaphore: two encoder licences shared by every process. A job's licence is
// kept alive by the watchdog while it runs; a worker that dies with a leased licence loses it when
// the lease ends, and a waiting job takes it without anyone announcing it; a licence passes
// between processes by its id.
//
//   REDIS_URL=redis://localhost:6379 npx tsx permit-expirable-semaphore.ts
import { Redis } from 'ioredis';
import { LockClient } from '@deadbolt/core';
import { ioredisExecutor } from '@deadbolt/adapter-ioredis';
import { PermitExpirableSemaphore } from '@deadbolt/semaphore';

const redis = new Redis(process.env.REDIS_URL ?? 'redis://localhost:6379');
const locks = new LockClient(ioredisExecutor(redis));

const encoders = new PermitExpirableSemaphore(locks, 'video-encoders');
await encoders.trySetPermits(2); // two encoder licences, shared by every process

// Without a leaseTime, the watchdog renews the licence's lease for as long as the job holds it.
const job = await encoders.acquire();
console.log(
  `the job holds a licence under a ${job.ids[0]?.length}-hex-digit id, renewed by the watchdog: ${job.leaseTime === undefined}`,
);

// A worker takes the other licence for 500 ms at most, then dies without giving it back.
const leasedFrom = performance.now();
const crashed = await encoders.acquire(1, { leaseTime: 500 });
crashed.signal.addEventListener('abort', () =>
  console.log(`the worker's signal: ${(crashed.signal.reason as Error).name}`),
);
console.log(`free licences: ${await encoders.availablePermits()}`);

// A waiting job wakes when that lease ends, though nobody announces it, and reclaims the licence.
{
  await using next = await encoders.acquire(1, { waitTime: 10_000 });
  const afterLease = performance.now() - leasedFrom >= 400;
  console.log(`the next job got a licence once the lease had ended: ${afterLease}, ${next.permits} held`);
}

// Licences pass between processes by id: one process takes it, another extends and releases it.
const { ids } = await encoders.acquire(1, { leaseTime: 60_000 });
const permitId = ids[0]!; // sent to the other process, with the job
const elsewhere = new PermitExpirableSemaphore(locks, 'video-encoders');
console.log(`lease extended by id: ${await elsewhere.updateLeaseTime(permitId, 120_000)}`);
await elsewhere.release(permitId);
console.log(`released by id, then again: ${await elsewhere.tryRelease(permitId)}`);

await job.release();
console.log(`free licences at the end: ${await encoders.availablePermits()}`);

await locks.close();
await redis.quit();
