// Local hand-offs: a release passes the lock straight to another task of the same client that
// waits for it, in the release's own script, without waking other processes; bounded, so that they
// get their turn. The client option `localHandoff` tunes or turns it off.
//
//   REDIS_URL=redis://localhost:6379 npx tsx local-handoff.ts
import { Redis } from 'ioredis';
import { LockClient } from '@deadbolt/core';
import { ioredisExecutor } from '@deadbolt/adapter-ioredis';

const redis = new Redis(process.env.REDIS_URL ?? 'redis://localhost:6379');
const cohort = new LockClient(ioredisExecutor(redis), { localHandoff: { maxPasses: 3, maxMillis: 500 } });
const strict = new LockClient(ioredisExecutor(redis), { localHandoff: false }); // every release to everyone, as Redisson

// How many releases were announced to every process: PUBLISH calls, from Redis's own counters.
async function publishes(): Promise<number> {
  const stats = await redis.info('commandstats');
  return Number(/^cmdstat_publish:calls=(\d+)/m.exec(stats)?.[1] ?? 0);
}

// Four tasks of one client take the lock in turn, each holding it for a moment.
async function takeTurns(locks: LockClient, label: string): Promise<void> {
  const lock = locks.lock(`report:${label}`);
  const before = await publishes();
  const order: number[] = [];
  await Promise.all(
    [1, 2, 3, 4].map(async (task) => {
      await using _held = await lock.acquire({ waitTime: 5_000 });
      order.push(task);
      await new Promise((resolve) => setTimeout(resolve, 5));
    }),
  );
  console.log(
    `${label}: tasks held it in the order ${order.join(', ')}; releases announced to every process: ${(await publishes()) - before}`,
  );
}

await takeTurns(cohort, 'cohort');
await takeTurns(strict, 'strict');
await cohort.close();
await strict.close();
redis.disconnect();
