// A cron job that must not run twice: two instances fire for the same tick, the second 120 ms
// after the first finished (its clock is late), and the tick runs once. One lock key per tick,
// taken with tryAcquire and a fixed lease, and not released (OncePerTick.ts).
//
//   REDIS_URL=redis://localhost:6379 npx tsx cron-job.ts
import { setTimeout as sleep } from 'node:timers/promises';
import { Redis } from 'ioredis';
import { LockClient } from '@deadbolt/core';
import { ioredisExecutor } from '@deadbolt/adapter-ioredis';
import { runOncePerTick } from './OncePerTick.js';

// Two instances of the service, each with its own connection and client.
const redisA = new Redis(process.env.REDIS_URL ?? 'redis://localhost:6379');
const redisB = new Redis(process.env.REDIS_URL ?? 'redis://localhost:6379');
const instances = { a: new LockClient(ioredisExecutor(redisA)), b: new LockClient(ioredisExecutor(redisB)) };

// The 10:00 tick of an every-minute schedule: its key lives for the minute.
const tick = { job: 'report', scheduledAt: new Date('2026-11-28T10:00:00Z'), leaseMs: 60_000 };
let runs = 0;
const sendReport = async () => {
  runs += 1;
  await sleep(100);
};

const ranOnA = await runOncePerTick(instances.a, tick, sendReport);
await sleep(120);
const ranOnB = await runOncePerTick(instances.b, tick, sendReport);
console.log(`instance a ran the 10:00 tick: ${ranOnA}; instance b, 120 ms after a finished: ${ranOnB}`);
console.log(`the 10:00 report was sent ${runs} time(s)`);

// The next tick has a key of its own: it runs, on whichever instance fires first.
const next = { ...tick, scheduledAt: new Date('2026-11-28T10:01:00Z') };
console.log(`instance b ran the 10:01 tick: ${await runOncePerTick(instances.b, next, sendReport)}`);

await Promise.all([instances.a.close(), instances.b.close()]);
await Promise.all([redisA.quit(), redisB.quit()]);
