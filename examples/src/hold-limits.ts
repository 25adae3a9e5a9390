// How long a lock is waited for and held: a client-level default wait for request handlers, an
// extend that turns a watchdog hold into a fixed lease only when told so, and a maximum hold time
// after which a stuck holder loses its lock to the next one.
//
//   REDIS_URL=redis://localhost:6379 npx tsx hold-limits.ts
import { setTimeout as sleep } from 'node:timers/promises';
import { Redis } from 'ioredis';
import { InvalidArgumentError, LockClient, LockLostError, LockWaitTimeoutError } from '@deadbolt/core';
import { ioredisExecutor } from '@deadbolt/adapter-ioredis';

const redis = new Redis(process.env.REDIS_URL ?? 'redis://localhost:6379');
// A short watchdog so the example is quick: the lease is 1.5 s, renewed every 0.5 s.
const locks = new LockClient(ioredisExecutor(redis), { watchdogTimeout: 1_500 });

// A request handler waits at most 200 ms for a lock, unless a call says otherwise.
const handlers = new LockClient(ioredisExecutor(redis), { defaultWaitTime: 200 });

async function updateCart(cartId: string): Promise<string> {
  try {
    return await handlers.lock(`cart:${cartId}`).withLock(() => 'updated');
  } catch (error) {
    if (error instanceof LockWaitTimeoutError) return 'busy, try again'; // a 409 or 503, not a hang
    throw error;
  }
}

const checkout = await locks.lock('cart:7').acquire();
console.log(`while checkout holds the cart: ${await updateCart('7')}`);
await checkout.release();
console.log(`after checkout: ${await updateCart('7')}`);

// extend() on a hold the watchdog keeps ends the renewal for good: it must say so.
const held = await locks.lock('nightly-export').acquire();
console.log(`kept by the watchdog: ${held.keptByWatchdog}`);
try {
  await held.extend(60_000);
} catch (error) {
  if (!(error instanceof InvalidArgumentError)) throw error;
  console.log(`extend without stopWatchdog: refused (${error.argument})`);
}
await held.extend(60_000, { stopWatchdog: true }); // a fixed lease of 60 s from now
console.log(`kept by the watchdog: ${held.keptByWatchdog}, lease: ${held.leaseTime} ms`);
await held.release();

// A holder that is alive but stuck keeps a watchdog lock forever, unless it has a maxHoldTime.
const stuck = await locks.lock('invoice:42').acquire({ maxHoldTime: 2_000 });
const next = locks.lock('invoice:42').acquire({ waitTime: 10_000 });
try {
  await sleep(60_000, undefined, { signal: stuck.signal }); // a call that never returns in time
} catch {
  const reason: unknown = stuck.signal.reason;
  if (!(reason instanceof LockLostError)) throw reason;
  console.log(`stuck holder stopped: ${reason.reason}`);
}
const nextHeld = await next;
console.log(`the next holder got the lock: ${await locks.lock('invoice:42').isHeldBy(nextHeld.owner)}`);
await nextHeld.release();

await handlers.close();
await locks.close();
await redis.quit();
