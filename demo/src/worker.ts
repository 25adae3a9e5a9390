// One contending process of the demo: a few tasks take the shared lock in turn, and inside each
// hold read a counter, pause, and write it back plus one. Without the lock, updates would be lost.
import { LockClient } from '@deadbolt/core';
import { ioredisExecutor } from '@deadbolt/adapter-ioredis';
import { Redis } from 'ioredis';

const [url = '', label = '?', tasks = '3', rounds = '5'] = process.argv.slice(2);
const redis = new Redis(url);
const locks = new LockClient(ioredisExecutor(redis));
const lock = locks.lock('demo:lock');

await Promise.all(
  Array.from({ length: Number(tasks) }, async (_, task) => {
    for (let round = 0; round < Number(rounds); round++) {
      const asked = performance.now();
      await lock.withLock(async () => {
        const waited = performance.now() - asked;
        const value = Number(await redis.get('demo:counter'));
        await new Promise((resolve) => setTimeout(resolve, 5));
        await redis.set('demo:counter', value + 1);
        console.log(`${label}/task${task}  holds the lock  counter ${value} -> ${value + 1}  (waited ${waited.toFixed(1)} ms)`);
      });
    }
  }),
);
await locks.close();
redis.disconnect();
