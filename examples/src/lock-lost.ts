// A lock lost while held, and how to react: the held lock's signal aborts with a LockLostError,
// the client emits `lockLost` with the reason, and work that passes the signal on stops before it
// conflicts with the next holder. withLock and `await using` both end with that LockLostError.
//
//   REDIS_URL=redis://localhost:6379 npx tsx lock-lost.ts
import { setTimeout as sleep } from 'node:timers/promises';
import { Redis } from 'ioredis';
import { LockClient, LockLostError, LockNotHeldError } from '@deadbolt/core';
import { ioredisExecutor } from '@deadbolt/adapter-ioredis';

const redis = new Redis(process.env.REDIS_URL ?? 'redis://localhost:6379');
// A short watchdog so the example is quick: the lease is 1.5 s, renewed every 0.5 s.
const locks = new LockClient(ioredisExecutor(redis), { watchdogTimeout: 1_500 });

locks.on('lockLost', ({ key, reason, error }) => {
  console.log(`lockLost event: ${key} (${reason}): ${error.message}`);
});

async function importBatch(batch: number, signal: AbortSignal): Promise<void> {
  console.log(`importing batch ${batch}`);
  await sleep(200, undefined, { signal }); // rejects with an AbortError once the lock is lost
}

// Something removes the lock half a second into the hold: here a DEL, as an operator, a failover
// that lost the write, or a pause longer than the lease would.
locks.once('acquired', () => setTimeout(() => void redis.del('nightly-import'), 500));

try {
  await locks.lock('nightly-import').withLock(async (signal) => {
    for (let batch = 1; ; batch++) {
      signal.throwIfAborted(); // stop before writing once the lock is gone
      await importBatch(batch, signal);
    }
  });
} catch (error) {
  if (!(error instanceof LockLostError)) throw error;
  console.log(`import stopped: ${error.name} (${error.reason})`); // retry later, alert, roll back...
}

// The same with `await using`: the loss is thrown at the closing brace. When the block threw
// too, JavaScript wraps both in a SuppressedError whose `error` is the LockLostError.
function lossIn(error: unknown): LockLostError | undefined {
  if (error instanceof LockLostError) return error;
  const disposal: unknown =
    error instanceof Error && error.name === 'SuppressedError' ? Reflect.get(error, 'error') : undefined;
  return disposal instanceof LockLostError ? disposal : undefined;
}

locks.once('acquired', () => setTimeout(() => void redis.del('nightly-report'), 500));
try {
  await using held = await locks.lock('nightly-report').acquire();
  for (let batch = 1; ; batch++) await importBatch(batch, held.signal);
} catch (error) {
  const lost = lossIn(error);
  if (!lost) throw error;
  console.log(`report stopped: ${lost.name} (${lost.reason})`);
}

// With a fixed lease the signal aborts when the lease ends, and lockLost says `leaseEnded`.
const held = await locks.lock('nightly-export').acquire({ leaseTime: 300 });
held.signal.addEventListener('abort', () => {
  console.log(`fixed lease over: ${(held.signal.reason as LockLostError).message}`);
});
await sleep(600);
// Every held thing releases alike: a lost hold rejects with its LockLostError, a second release
// with LockNotHeldError.
await held.release().catch((error: unknown) => console.log(`release: ${String(error)}`));
await held.release().catch((error: unknown) => {
  if (!(error instanceof LockNotHeldError)) throw error;
  console.log('released twice: LockNotHeldError');
});

await locks.close();
await redis.quit();
