// Fencing tokens: a holder that pauses past its lease (a long GC, a blocked event loop, a
// stopped process) and then writes is refused by the storage, because the next holder's token
// is higher. The pause is simulated with a sleep that ignores the lock's signal. The storage is
// FencedStorage.ts, next to this file.
//
//   REDIS_URL=redis://localhost:6379 npx tsx fenced-storage.ts
import { setTimeout as sleep } from 'node:timers/promises';
import { Redis } from 'ioredis';
import { LockClient } from '@deadbolt/core';
import { ioredisExecutor } from '@deadbolt/adapter-ioredis';
import { FencedLock } from '@deadbolt/fenced-lock';
import { FencedStorage } from './FencedStorage.js';

const redis = new Redis(process.env.REDIS_URL ?? 'redis://localhost:6379');
const executor = ioredisExecutor(redis);
const locks = new LockClient(executor);
const storage = new FencedStorage(executor);
const lock = new FencedLock(locks, 'ledger');

const outcome = (accepted: boolean) => (accepted ? 'accepted' : 'refused');

// A takes the lock with a 200 ms lease and writes.
const a = await lock.acquire({ leaseTime: 200 });
console.log(`A writes with token ${a.token}: ${outcome(await storage.write('balance', '100 from A', a.token))}`);

// A pauses for longer than its lease. Meanwhile the lease runs out and B takes the lock.
const paused = sleep(500);
const b = await lock.acquire({ waitTime: 5_000 });
console.log(`B writes with token ${b.token}: ${outcome(await storage.write('balance', '90 from B', b.token))}`);

// A resumes and writes as if it still held the lock: its token is older than B's.
await paused;
console.log(
  `A, back from its pause, writes with token ${a.token}: ${outcome(await storage.write('balance', '120 from A', a.token))}`,
);
console.log(`A's lock signal aborted: ${a.signal.aborted}`);
console.log(`balance: ${await storage.read('balance')}`);
console.log(`current token: ${await lock.currentToken()}`);

await b.release();
await a.release().catch((error: Error) => console.log(`A's release: ${error.name}`));

// The usual shape: stop when the lock is lost, and write with the token of the hold you are in.
await lock.withLock(async (signal, held) => {
  signal.throwIfAborted();
  await storage.write('balance', '95 from C', held.token); // refused if a later holder wrote first
});
console.log(`balance: ${await storage.read('balance')}`);

// Every acquisition draws a token, a re-entry too: inside nested holds, write with the innermost.
await lock.withLock(async (_signal, outer) => {
  await lock.withLock(async (_signal, inner) => {
    console.log(
      `D's inner hold writes with token ${inner.token}: ${outcome(await storage.write('balance', '80 from D', inner.token))}`,
    );
  });
  // The storage has seen the inner hold's token, which is higher than the outer one's.
  console.log(
    `D's outer hold writes with token ${outer.token}: ${outcome(await storage.write('balance', '70 from D', outer.token))}`,
  );
});

await locks.close();
await redis.quit();
