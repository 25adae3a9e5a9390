// Getting started with node-redis: a lock client over a connected `redis` client, and a lock held
// for the length of a block with `await using`.
//
//   REDIS_URL=redis://localhost:6379 npx tsx getting-started-node-redis.ts
import { createClient } from 'redis';
import { LockClient } from '@deadbolt/core';
import { nodeRedisExecutor } from '@deadbolt/adapter-node-redis';

const redis = await createClient({ url: process.env.REDIS_URL ?? 'redis://localhost:6379' }).connect();
const locks = new LockClient(nodeRedisExecutor(redis));
const report = locks.lock('report:2026-11');

{
  await using held = await report.acquire();
  console.log(`rendering the report as owner ${held.owner}`);
} // released here, also when the block throws
console.log(`locked after the block: ${await report.isLocked()}`);

await locks.close(); // closes what Deadbolt opened; your `redis` stays open
await redis.close();
