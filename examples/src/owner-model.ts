// The owner model: who holds a lock, when an acquisition re-enters, and who may release it.
//
//   REDIS_URL=redis://localhost:6379 npx tsx owner-model.ts
import { setTimeout as sleep } from 'node:timers/promises';
import { Redis } from 'ioredis';
import { LockClient, LockLostError, LockNotHeldError } from '@deadbolt/core';
import { ioredisExecutor } from '@deadbolt/adapter-ioredis';

const redis = new Redis(process.env.REDIS_URL ?? 'redis://localhost:6379');
const locks = new LockClient(ioredisExecutor(redis));

// Rule 1: one handle, shared by concurrent tasks; each acquisition gets its own owner.
const invoices = locks.lock('invoices');

async function writeInvoice(request: string): Promise<void> {
  await using held = await invoices.acquire();
  console.log(`${request} holds the lock as owner ${held.owner}`);
  await sleep(50);
  console.log(`${request} releases it`);
}

// Two requests at once: the second waits for the first.
await Promise.all([writeInvoice('request A'), writeInvoice('request B')]);

// Rule 2: inside withLock, acquisitions of the same lock re-enter as the callback's owner.
await invoices.withLock(async () => {
  await invoices.withLock(async () => {
    console.log(`nested hold count: ${await invoices.holdCount()}`); // 2
  });
  console.log(`outer hold count: ${await invoices.holdCount()}`); // 1
});

// An owner can also be named: the same owner re-enters, on this client.
const first = await invoices.acquire({ owner: 'job-42' });
const again = await invoices.acquire({ owner: 'job-42' });
console.log(`job-42 hold count: ${await invoices.holdCount('job-42')}`); // 2
await again.release();
await first.release(); // the last release frees the lock
console.log(`locked after both releases: ${await invoices.isLocked()}`);

// Rule 3: a hold that is no longer the owner's cannot be released, and nothing changes.
const leased = await invoices.acquire({ leaseTime: 100 });
await sleep(300); // the lease ran out; someone else may hold the lock by now
try {
  await leased.release();
} catch (error) {
  if (!(error instanceof LockLostError)) throw error;
  console.log(`release after the lease ended: ${error.name}`);
}
await leased.release().catch((error: unknown) => {
  if (!(error instanceof LockNotHeldError)) throw error;
  console.log(`released again: ${error.name}`);
});

await locks.close();
await redis.quit();
