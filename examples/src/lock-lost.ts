// A lock lost while held, and how to react: the held lock's signal aborts with a LockLostError,
// the client emits `lockLost`, and work that checks the signal stops before it conflicts with
// the next holder.
//
//   REDIS_URL=redis://localhost:6379 npx tsx lock-lost.ts
import { setTimeout as sleep } from 'node:timers/promises';
import { Redis } from 'ioredis';
import { LockClient, LockLostError } from '@deadbolt/core';
import { ioredisExecutor } from '@deadbolt/adapter-ioredis';

const redis = new Redis(process.env.REDIS_URL ?? 'redis://localhost:6379');
// A short watchdog so the example is quick: the lease is 1.5 s, renewed every 0.5 s.
const locks = new LockClient(ioredisExecutor(redis), { watchdogTimeout: 1_500 });

locks.on('lockLost', ({ key, error }) => {
  console.log(`lockLost event: ${key}: ${error.message}`);
});

async function importBatch(batch: number): Promise<void> {
  console.log(`importing batch ${batch}`);
  await sleep(200);
}

// Something removes the lock half a second into the hold: here a DEL, as an operator, a failover
// that lost the write, or a pause longer than the lease would.
locks.once('acquired', () => setTimeout(() => void redis.del('nightly-import'), 500));

try {
  await locks.lock('nightly-import').withLock(async (signal) => {
    for (let batch = 1; ; batch++) {
      signal.throwIfAborted(); // stop before writing once the lock is gone
      await importBatch(batch);
    }
  });
} catch (error) {
  if (!(error instanceof LockLostError)) throw error;
  console.log(`import stopped: ${error.name}`); // retry later, alert, roll back...
}

// With a fixed lease the signal aborts when the lease ends.
const held = await locks.lock('nightly-export').acquire({ leaseTime: 300 });
held.signal.addEventListener('abort', () => {
  console.log(`fixed lease over: ${(held.signal.reason as LockLostError).message}`);
});
await sleep(600);

await locks.close();
await redis.quit();
