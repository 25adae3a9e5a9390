// One process of the demo, in one of two modes:
// - `contend <url> <label> <tasks> <rounds>`: a few tasks take the shared lock in turn, and inside
//   each hold read a counter, pause, and write it back plus one. Without the lock, updates would
//   be lost.
// - `queue <url> <kind> <waiter>...`: says it is ready (list demo:ready:<kind>), takes the start
//   time the main process hands out (list demo:go:<kind>), then each waiter `<name>@<offset>` asks
//   for a lock of `kind` (Lock or FairLock) at start + offset ms, and once it holds the lock
//   appends its name to the list demo:order:<kind>.
import { LockClient } from '@deadbolt/core';
import { ioredisExecutor } from '@deadbolt/adapter-ioredis';
import { FairLock } from '@deadbolt/fair-lock';
import { Redis } from 'ioredis';

const [mode, url = '', ...args] = process.argv.slice(2);
const redis = new Redis(url);
const locks = new LockClient(ioredisExecutor(redis));

if (mode === 'contend') {
  const [label = '?', tasks = '3', rounds = '5'] = args;
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
          console.log(
            `${label}/task${task}  holds the lock  counter ${value} -> ${value + 1}  (waited ${waited.toFixed(1)} ms)`,
          );
        });
      }
    }),
  );
} else {
  const [kind = 'Lock', ...waiters] = args;
  const name = `demo:order-lock:${kind}`;
  const lock = kind === 'FairLock' ? new FairLock(locks, name) : locks.lock(name);
  // A process that starts late must not bunch its waiters together: everyone starts on one signal.
  await redis.rpush(`demo:ready:${kind}`, String(process.pid));
  const [, startAt = '0'] = (await redis.blpop(`demo:go:${kind}`, 0)) ?? [];
  await Promise.all(
    waiters.map(async (waiter) => {
      const [label = '?', offset = '0'] = waiter.split('@');
      await new Promise((resolve) => setTimeout(resolve, Number(startAt) + Number(offset) - Date.now()));
      await lock.withLock(() => redis.rpush(`demo:order:${kind}`, label));
    }),
  );
}
await locks.close();
redis.disconnect();
