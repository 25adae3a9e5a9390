// Sharing locks with Java services that use Redisson: both sides read and write the same hash,
// so they exclude each other on one name and wake each other's waiters. Here the Java side is
// played by raw commands that write what Redisson writes.
//
//   REDIS_URL=redis://localhost:6379 npx tsx redisson-interop.ts
import { randomUUID } from 'node:crypto';
import { Redis } from 'ioredis';
import { LockClient } from '@deadbolt/core';
import { ioredisExecutor } from '@deadbolt/adapter-ioredis';

const redis = new Redis(process.env.REDIS_URL ?? 'redis://localhost:6379');
const locks = new LockClient(ioredisExecutor(redis));
const stock = locks.lock('inventory:7');

// A Java service takes RLock "inventory:7": a hash at the name whose field
// "<its client UUID>:<thread id>" counts its holds, with a 30 s lease.
const javaOwner = `${randomUUID()}:57`;
await redis.multi().hset('inventory:7', javaOwner, 1).pexpire('inventory:7', 30_000).exec();

const attempt = await stock.tryAcquire();
console.log(`Deadbolt tryAcquire while Java holds it: ${attempt === null ? 'null' : 'acquired'}`);

// The Java service unlocks: Redisson deletes the hash and publishes 0 on the lock's channel.
setTimeout(() => {
  void redis.multi().del('inventory:7').publish('redisson_lock__channel:{inventory:7}', '0').exec();
}, 200);

const started = performance.now();
const held = await stock.acquire({ waitTime: 10_000 });
console.log(`Deadbolt took it after ${Math.round(performance.now() - started)} ms, woken by Redisson's message`);

// What a Redisson client reads now: Deadbolt's owner field "<client id>:<owner id>" = 1, and a
// lease the watchdog renews, as Redisson's does.
console.log(`hash: ${JSON.stringify(await redis.hgetall('inventory:7'))}`);
console.log(`Deadbolt's owner field: ${locks.id}:${held.owner}`);
await held.release();

await locks.close();
await redis.quit();
